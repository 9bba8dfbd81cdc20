import fc from "fast-check"
import type { Api, Operation, Parameter } from "./Operations.js"
import { ExistingId, type Value, valuesOf } from "./SchemaValues.js"
import * as Values from "./Values.js"

/** What the request sent, by the name it was sent under: the echo check looks for each in error responses. */
export interface Input {
  readonly name: string
  readonly value: string
  /** An object key the request sent: errors name unknown fields by design, so only the leak check reads it. */
  readonly key?: true
}

/** A request body: JSON or other text, or `size` bytes of JSON sent with a Content-Length or chunked. */
export type Body =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "oversized"; readonly size: number; readonly chunked: boolean }

/** The credentials a case sends: the full token, the VIEW-only token, none, or a literal `Authorization`. */
export type Auth = "full" | "view" | "none" | { readonly header: string }

/** One fuzz request, ready to send. */
export interface Case {
  readonly operation: string
  readonly mutation: string
  readonly method: string
  /** The percent-encoded path below the mount point, with its query string. */
  readonly target: string
  readonly headers: Readonly<Record<string, string>>
  readonly auth: Auth
  readonly body: Body | undefined
  readonly inputs: ReadonlyArray<Input>
}

/** What building a case needs from the run: ids of resources that exist on the caller's platform. */
export interface Context {
  readonly existing: (resourceType: string, pick: number) => string | undefined
}

/** A case before the run's context is known. */
export type Plan = (context: Context) => Case

/** The largest body the server accepts; oversized cases send more than this. */
export const bodyLimitBytes = 1024 * 1024

const placeholderUuid = "00000000-0000-4000-8000-000000000000"

const materialize = (value: Value, context: Context): unknown => {
  if (value instanceof ExistingId) {
    return context.existing(value.resourceType, value.pick) ?? `${value.resourceType}:${placeholderUuid}`
  }
  if (Array.isArray(value)) return value.map((item: Value) => materialize(item, context))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, materialize(item as Value, context)]))
  }
  return value
}

/** Every string leaf of a JSON value, named by the key that holds it, and every key of its objects (`key: true`). */
const stringLeaves = (value: unknown, name: string, into: Array<Input>): Array<Input> => {
  if (typeof value === "string") into.push({ name, value })
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, name, into)
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      // Every key sent, at any depth, may be named by a field error's path.
      into.push({ name: "(key)", value: key, key: true })
      stringLeaves(item, key, into)
    }
  }
  return into
}

type Path = ReadonlyArray<string | number>

/** The paths of every node under the root of a JSON value (the root itself excluded). */
const pathsOf = (value: unknown, prefix: Path = []): Array<Path> => {
  if (Array.isArray(value))
    return value.flatMap((item, index) => [[...prefix, index], ...pathsOf(item, [...prefix, index])])
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])])
  }
  return []
}

const objectPathsOf = (value: unknown, prefix: Path = []): Array<Path> => {
  if (Array.isArray(value)) return value.flatMap((item, index) => objectPathsOf(item, [...prefix, index]))
  if (typeof value === "object" && value !== null) {
    return [prefix, ...Object.entries(value).flatMap(([key, item]) => objectPathsOf(item, [...prefix, key]))]
  }
  return []
}

const clone = (value: unknown): unknown => structuredClone(value)

/** Changes `root` at `path`: sets the node to `next`, or deletes it when `next` is `remove`. */
const remove = Symbol("remove")
const edit = (root: unknown, path: Path, next: unknown): unknown => {
  const copy = clone(root)
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy)
  const last = path[path.length - 1]
  if (last === undefined || typeof parent !== "object" || parent === null) return copy
  if (next === remove) {
    if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1)
    else delete (parent as Record<string, unknown>)[last]
  } else (parent as Record<string | number, unknown>)[last] = next
  return copy
}

const at = <A>(items: ReadonlyArray<A>, pick: number): A | undefined =>
  items.length === 0 ? undefined : items[pick % items.length]

/**
 * Percent-encodes a path segment the way a client would; a lone surrogate, which UTF-8 cannot carry, goes as the
 * bytes a careless encoder writes for it.
 */
const encodeSegment = (segment: string): string => {
  try {
    return encodeURIComponent(segment)
  } catch {
    return segment
      .split(/([\ud800-\udfff])/)
      .map((part) =>
        /^[\ud800-\udfff]$/.test(part)
          ? [
              ...Buffer.from([
                0xe0 | (part.charCodeAt(0) >> 12),
                0x80 | ((part.charCodeAt(0) >> 6) & 63),
                0x80 | (part.charCodeAt(0) & 63)
              ])
            ]
              .map((byte) => `%${byte.toString(16).toUpperCase()}`)
              .join("")
          : encodeURIComponent(part)
      )
      .join("")
  }
}

const queryString = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.length === 0
    ? ""
    : `?${pairs.map(([name, value]) => `${encodeSegment(name)}=${encodeSegment(value)}`).join("&")}`

/** Builds the path of an operation from its parameter values. */
const pathOf = (operation: Operation, values: ReadonlyMap<string, string>) =>
  operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeSegment(values.get(name) ?? ""))

const wrongContentTypes = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=latin1",
  "application/jsonx",
  "json",
  "*/*",
  ""
] as const

/** Bodies that are not JSON, each carrying a marker the echo check looks for. */
const badJson: fc.Arbitrary<{ readonly text: string; readonly marker: string; readonly key: boolean }> = fc
  .tuple(
    Values.marker,
    fc.constantFrom(
      (m: string) => `{"fullName": "${m}`,
      (m: string) => `{${m}}`,
      (m: string) => `[${m}`,
      (m: string) => `${m}`,
      (m: string) => `{"a":1,}${m}`,
      (m: string) => `{"${m}": undefined}`,
      (m: string) => `{'${m}': 1}`,
      (m: string) => `\ufeff{"x":"${m}"}`,
      (m: string) => `{"x":"${m}"} trailing`,
      (m: string) => `{"x":"${m}\\ud800"}`,
      (m: string) => `{"x":"${m}\\u0000"}`,
      (m: string) => `${"[".repeat(5000)}"${m}"${"]".repeat(5000)}`,
      (m: string) => `{"${m}":${'{"a":'.repeat(2000)}1${"}".repeat(2000)}}`
    )
  )
  .map(([marker, make]) => {
    const text = make(marker)
    // Deeply nested but valid JSON carries its marker as an object key.
    return { text, marker, key: text.startsWith(`{"${marker}":{`) }
  })

/** The mutations a case applies to an otherwise valid request of an operation. */
type Mutation =
  | { readonly kind: "valid" }
  | { readonly kind: "path-id"; readonly pick: number; readonly value: string }
  | { readonly kind: "path-unknown"; readonly pick: number; readonly uuid: string }
  | { readonly kind: "query"; readonly pick: number; readonly value: string }
  | { readonly kind: "query-extra"; readonly name: string; readonly value: string; readonly repeat: boolean }
  | { readonly kind: "body-field"; readonly pick: number; readonly value: unknown }
  | { readonly kind: "body-number"; readonly pick: number; readonly text: string }
  | { readonly kind: "body-missing"; readonly pick: number }
  | { readonly kind: "body-extra"; readonly pick: number; readonly name: string; readonly value: unknown }
  | { readonly kind: "body-shape"; readonly value: unknown }
  | { readonly kind: "body-json"; readonly text: string; readonly marker: string; readonly key: boolean }
  | { readonly kind: "content-type"; readonly contentType: string }
  | { readonly kind: "oversized"; readonly size: number; readonly chunked: boolean }
  | { readonly kind: "header"; readonly pick: number; readonly value: string }
  | { readonly kind: "auth"; readonly header: string; readonly clientId: string | undefined }
  | { readonly kind: "no-auth" }
  | { readonly kind: "route"; readonly variant: number; readonly marker: string }

const queryValue = (api: Api, parameter: Parameter, otherTypes: ReadonlyArray<string>) => {
  const schema = api.resolve(parameter.schema)
  const type = api.resourceTypeOf(schema)
  if (type !== undefined) return Values.badId(type, otherTypes)
  if (parameter.name === "limit") return Values.badNumberQuery
  if (parameter.name === "cursor") return Values.forgedCursor
  const description = typeof schema["description"] === "string" ? schema["description"] : ""
  if (/DateTime|date/i.test(description) || schema["format"] === "date-time") return Values.badTimestamp
  return fc.oneof(Values.hostileString, Values.badNumberQuery)
}

const latin1Header = fc.oneof(
  fc.constantFrom("", " ", "a".repeat(256), "x".repeat(8000)),
  Values.marker,
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }).map((text) => Buffer.from(text).toString("latin1"))
)

const mutations = (api: Api, operation: Operation): fc.Arbitrary<Mutation> => {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === "path")
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === "query")
  const headerParameters = operation.parameters.filter((parameter) => parameter.in === "header")
  const types = api.resourceTypes
  const idType = (pick: number) => api.resourceTypeOf(at(pathParameters, pick)?.schema ?? {}) ?? "Customer"
  const weighted: Array<fc.WeightedArbitrary<Mutation>> = [
    { weight: 3, arbitrary: fc.constant({ kind: "valid" }) },
    { weight: 2, arbitrary: fc.constant({ kind: "no-auth" }) },
    {
      weight: 4,
      arbitrary: Values.badAuthorization.map(({ clientId, header }) => ({ kind: "auth", header, clientId }))
    },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.nat(20), Values.marker).map(([variant, marker]) => ({ kind: "route", variant, marker }))
    }
  ]
  if (pathParameters.length > 0) {
    weighted.push(
      {
        weight: 6,
        arbitrary: fc.nat().chain((pick) =>
          Values.badId(
            idType(pick),
            types.filter((type) => type !== idType(pick))
          ).map((value) => ({ kind: "path-id" as const, pick, value }))
        )
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.nat(), fc.uuid({ version: 4 }))
          .map(([pick, uuid]) => ({ kind: "path-unknown", pick, uuid }))
      }
    )
  }
  if (queryParameters.length > 0) {
    weighted.push(
      {
        weight: 8,
        arbitrary: fc.nat().chain((pick) => {
          const parameter = queryParameters[pick % queryParameters.length]!
          return queryValue(api, parameter, types).map((value) => ({ kind: "query" as const, pick, value }))
        })
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.oneof(fc.constantFrom(...queryParameters.map((parameter) => parameter.name)), Values.marker),
            fc.oneof(
              Values.marker,
              Values.hostileString.filter((text) => text.length < 2000)
            ),
            fc.boolean()
          )
          .map(([name, value, repeat]) => ({ kind: "query-extra", name, value, repeat }))
      }
    )
  }
  if (headerParameters.length > 0) {
    weighted.push({
      weight: 2,
      arbitrary: fc.tuple(fc.nat(), latin1Header).map(([pick, value]) => ({ kind: "header", pick, value }))
    })
  }
  if (operation.body !== undefined) {
    weighted.push(
      {
        weight: 8,
        arbitrary: fc
          .tuple(fc.nat(), fc.oneof(Values.wrongType, Values.hostileString, Values.boundaryNumber))
          .map(([pick, value]) => ({ kind: "body-field", pick, value }))
      },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.nat(), Values.boundaryNumberText)
          .map(([pick, text]) => ({ kind: "body-number", pick, text }))
      },
      { weight: 3, arbitrary: fc.nat().map((pick) => ({ kind: "body-missing", pick })) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            fc.nat(),
            fc.oneof(Values.marker, fc.constantFrom("__proto__", "constructor", "", "id", "status", "_tag")),
            Values.wrongType
          )
          .map(([pick, name, value]) => ({ kind: "body-extra", pick, name, value }))
      },
      { weight: 2, arbitrary: Values.wrongType.map((value) => ({ kind: "body-shape", value })) },
      { weight: 3, arbitrary: badJson.map(({ key, marker, text }) => ({ kind: "body-json", text, marker, key })) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...wrongContentTypes).map((contentType) => ({ kind: "content-type", contentType }))
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.integer({ min: bodyLimitBytes + 1, max: 3 * bodyLimitBytes }), fc.boolean())
          .map(([size, chunked]) => ({ kind: "oversized", size, chunked }))
      }
    )
  }
  return fc.oneof(...weighted)
}

const routeVariant = (
  operation: Operation,
  path: string,
  variant: number,
  marker: string
): { method: string; path: string } => {
  const variants: ReadonlyArray<() => { method: string; path: string }> = [
    () => ({ method: operation.method, path: path.toUpperCase() }),
    () => ({ method: operation.method, path: `${path}/` }),
    () => ({ method: operation.method, path: path.replace("/", "//") }),
    () => ({ method: operation.method, path: `${path}/${marker}` }),
    () => ({ method: operation.method, path: `${path}/${marker}`.repeat(100) }),
    () => ({ method: operation.method, path: `/${marker}${path}` }),
    () => ({ method: operation.method, path: `${path}%00` }),
    () => ({ method: operation.method, path: `${path}/%ED%A0%80` }),
    () => ({ method: operation.method, path: `${path}/%ZZ` }),
    () => ({ method: operation.method, path: `${path}/..%2F..%2F${marker}` }),
    () => ({ method: operation.method, path: `${path};${marker}` }),
    () => ({ method: "PUT", path }),
    () => ({ method: operation.method === "DELETE" ? "POST" : "DELETE", path }),
    () => ({ method: "PATCH", path }),
    () => ({ method: "OPTIONS", path }),
    () => ({ method: "HEAD", path }),
    () => ({ method: operation.method, path: `/${"x".repeat(8000)}${marker}` }),
    () => ({ method: operation.method, path: path.replace(/\/2025-10-13/, "/2024-01-01") }),
    () => ({ method: operation.method, path: `${path}/%2e%2e` }),
    () => ({ method: operation.method, path: `/${marker}` }),
    () => ({ method: operation.method, path: `${path}/${encodeSegment("\u202e\u0000")}` })
  ]
  return variants[variant % variants.length]!()
}

/**
 * A valid value of a query parameter. Pages follow the API's conventions (DESIGN §8): `limit` is 1-100 whatever its
 * pattern admits, and only the server can make a `cursor`, so a valid request has none.
 */
const validQueryValue = (parameter: Parameter, values: ReturnType<typeof valuesOf>): fc.Arbitrary<Value | undefined> =>
  parameter.name === "limit"
    ? fc.integer({ min: 1, max: 100 }).map(String)
    : parameter.name === "cursor"
      ? fc.constant(undefined)
      : values(parameter.schema)

/** The plan of one case of `operation`: a valid request (as far as the schemas tell) with one mutation. */
const planOf = (api: Api, operation: Operation): fc.Arbitrary<Plan> => {
  const values = valuesOf(api)
  const parameters = operation.parameters
  const valid = fc.record({
    path: fc.tuple(...parameters.filter((p) => p.in === "path").map((p) => values(p.schema)), fc.constant(null)),
    query: fc.tuple(
      ...parameters
        .filter((p) => p.in === "query")
        .map((p) => fc.option(validQueryValue(p, values), { freq: 3, nil: undefined })),
      fc.constant(null)
    ),
    body: operation.body === undefined ? fc.constant(undefined) : values(operation.body),
    view: fc.nat(9)
  })
  return fc.tuple(valid, mutations(api, operation)).map(([start, mutation]): Plan => (context) => {
    const inputs: Array<Input> = []
    const pathParameters = parameters.filter((p) => p.in === "path")
    const pathValues = new Map<string, string>()
    pathParameters.forEach((parameter, index) => {
      pathValues.set(parameter.name, String(materialize(start.path[index] as Value, context)))
    })
    if (mutation.kind === "path-id" || mutation.kind === "path-unknown") {
      const parameter = at(pathParameters, mutation.pick)!
      const type = api.resourceTypeOf(parameter.schema) ?? "Customer"
      pathValues.set(parameter.name, mutation.kind === "path-id" ? mutation.value : `${type}:${mutation.uuid}`)
    }
    for (const [name, value] of pathValues) inputs.push({ name, value })

    const queryParameters = parameters.filter((p) => p.in === "query")
    const query: Array<readonly [string, string]> = []
    queryParameters.forEach((parameter, index) => {
      const value = start.query[index]
      if (value !== undefined && value !== null)
        query.push([parameter.name, String(materialize(value as Value, context))])
    })
    if (mutation.kind === "query") {
      const parameter = at(queryParameters, mutation.pick)!
      const kept = query.filter(([name]) => name !== parameter.name)
      query.length = 0
      query.push(...kept, [parameter.name, mutation.value])
    }
    if (mutation.kind === "query-extra") {
      query.push([mutation.name, mutation.value])
      if (mutation.repeat) query.push([mutation.name, mutation.value])
    }
    for (const [name, value] of query) inputs.push({ name, value })

    const headers: Record<string, string> = {}
    const headerParameters = parameters.filter((p) => p.in === "header")
    if (mutation.kind === "header") {
      const parameter = at(headerParameters, mutation.pick)!
      headers[parameter.name] = mutation.value
      inputs.push({ name: parameter.name, value: mutation.value })
    }

    let body: Body | undefined
    if (operation.body !== undefined) {
      const json = materialize(start.body as Value, context)
      let text: string = JSON.stringify(json)
      let sent: unknown = json
      switch (mutation.kind) {
        case "body-field": {
          const path = at(pathsOf(json), mutation.pick)
          sent = path === undefined ? mutation.value : edit(json, path, mutation.value)
          text = JSON.stringify(sent) ?? "null"
          break
        }
        case "body-number": {
          const path = at(pathsOf(json), mutation.pick)
          const hole = "\u0001number\u0001"
          sent = path === undefined ? hole : edit(json, path, hole)
          text = (JSON.stringify(sent) ?? "").replace(JSON.stringify(hole), mutation.text)
          break
        }
        case "body-missing": {
          const path = at(pathsOf(json), mutation.pick)
          sent = path === undefined ? json : edit(json, path, remove)
          text = JSON.stringify(sent) ?? ""
          break
        }
        case "body-extra": {
          const path = at(objectPathsOf(json), mutation.pick) ?? []
          const target = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], clone(json))
          const next = { ...(target as Record<string, unknown>) }
          Object.defineProperty(next, mutation.name, {
            value: mutation.value,
            enumerable: true,
            writable: true,
            configurable: true
          })
          sent = path.length === 0 ? next : edit(json, path, next)
          inputs.push({ name: "body", value: mutation.name, key: true })
          text = JSON.stringify(sent) ?? ""
          break
        }
        case "body-shape":
          sent = mutation.value
          text = JSON.stringify(mutation.value) ?? "null"
          break
        case "body-json":
          sent = undefined
          text = mutation.text
          inputs.push({ name: "body", value: mutation.marker, ...(mutation.key ? { key: true as const } : {}) })
          break
      }
      if (sent !== undefined) stringLeaves(sent, "body", inputs)
      body =
        mutation.kind === "oversized"
          ? { kind: "oversized", size: mutation.size, chunked: mutation.chunked }
          : { kind: "text", text }
      headers["content-type"] = mutation.kind === "content-type" ? mutation.contentType : "application/json"
      if (mutation.kind === "content-type" && mutation.contentType === "") delete headers["content-type"]
    }

    let method = operation.method
    let path = pathOf(operation, pathValues)
    if (mutation.kind === "route") {
      const routed = routeVariant(operation, path, mutation.variant, mutation.marker)
      method = routed.method
      path = routed.path
      inputs.push({ name: "path", value: mutation.marker })
      if (method === "GET" || method === "HEAD" || method === "OPTIONS") body = undefined
    }
    let auth: Auth = operation.secured ? (start.view < 2 ? "view" : "full") : "none"
    if (mutation.kind === "no-auth") auth = "none"
    if (mutation.kind === "auth") {
      auth = { header: mutation.header }
      if (mutation.clientId !== undefined) inputs.push({ name: "authorization", value: mutation.clientId })
    }
    return {
      operation: operation.operationId,
      mutation: auth === "view" && mutation.kind !== "route" ? `${mutation.kind}+view` : mutation.kind,
      method,
      target: `${path}${queryString(query)}`,
      headers,
      auth,
      body,
      inputs
    }
  })
}

/**
 * The cases of a run: case `index` of seed `seed` is always the same request (given the same context), so a
 * finding is reproduced by its seed and index. Cases are drawn in blocks, so a long run holds one block at a time.
 */
export const plans = (api: Api, seed: number): ((index: number) => Plan) => {
  const byOperation = fc.oneof(...api.operations.map((operation) => planOf(api, operation)))
  const blockSize = 128
  let block: { readonly number: number; readonly plans: ReadonlyArray<Plan> } | undefined
  return (index) => {
    const number = Math.floor(index / blockSize)
    if (block?.number !== number) {
      block = {
        number,
        plans: fc.sample(byOperation, { seed: (seed + Math.imul(number, 0x9e3779b1)) | 0, numRuns: blockSize })
      }
    }
    return block.plans[index % blockSize]!
  }
}
