import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"

interface RouteEntry {
  readonly method: string
  readonly pattern: RegExp
}

const toPattern = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/")}$`
  )

/** The methods the API accepts on a path, for answering 405 with an `Allow` header instead of 404. */
export const makeAllowedMethods = (api: HttpApi.HttpApi.Any) => {
  const entries: Array<RouteEntry> = []
  const { groups } = api as unknown as HttpApi.HttpApi.AnyWithProps
  for (const group of Object.values(groups) as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    for (const endpoint of Object.values(group.endpoints)) {
      entries.push({ method: endpoint.method, pattern: toPattern(endpoint.path) })
    }
  }
  return (path: string): ReadonlyArray<string> => [
    ...new Set(entries.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))
  ]
}
