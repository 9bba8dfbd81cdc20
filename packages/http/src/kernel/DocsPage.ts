import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, type Layer, Scope } from "effect"

/** Where the API reference page is served, beside `/openapi.json`. */
export const docsPath = "/docs"

/*
 * The document's `servers` entry is relative (`.`), which OpenAPI resolves against the document's own URL. The
 * page's renderer (Scalar) resolves it against the origin instead, so under a mount prefix its "try it" requests
 * would miss the prefix. The page is served beside the document, so this script, run before the renderer, resolves
 * each server against the page's own URL: the page then uses the prefix the API is mounted under, whether the
 * handler was told it (`WebHandler.make({ prefix })`) or a framework stripped it (Express `app.use("/payments")`).
 */
const resolveServersAgainstPage = `<script>
(() => {
  const element = document.getElementById("api-reference")
  const spec = JSON.parse(element.textContent)
  spec.servers = (spec.servers || []).map((server) => ({ ...server, url: new URL(server.url, location.href).href.replace(/\\/$/, "") }))
  element.textContent = JSON.stringify(spec)
})()
</script>`

// The spec's data block, which the script must follow and the renderer must come after.
const specBlock = /<script id="api-reference" type="application\/json">[\s\S]*?<\/script>/

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The reference page with the server-resolving script inserted after the spec's data block. */
export const withServersFromPageUrl = (page: string): string => {
  const block = specBlock.exec(page)
  if (block === null) throw new Error("the API reference page has no api-reference data block to resolve servers in")
  const end = block.index + block[0].length
  return `${page.slice(0, end)}\n${resolveServersAgainstPage}${page.slice(end)}`
}

// The page is built once by HttpApiScalar and its body reused, so each distinct body is rewritten once.
const rewritten = new WeakMap<Uint8Array, HttpBody.Uint8Array>()

const rewrite = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (body._tag !== "Uint8Array") return response
  let next = rewritten.get(body.body)
  if (next === undefined) {
    next = HttpBody.uint8Array(encoder.encode(withServersFromPageUrl(decoder.decode(body.body))), body.contentType)
    rewritten.set(body.body, next)
  }
  return HttpServerResponse.setBody(response, next)
}

// What the page is configured with: no web fonts from Scalar's servers; an empty icon, so browsers do not ask the
// host app for `/favicon.ico`.
const scalar = { withDefaultFonts: false, favicon: "data:," } as const

/*
 * Scalar's renderer is about 7 MB of JavaScript, held twice in the heap (module source and string) and a third time
 * in the built page: 20 MB the server would otherwise carry from its start, where the heap cap makes every megabyte
 * cost collections under load. So the module is imported, and the page built, on the first visit only.
 */
const loadPage = (api: HttpApi.HttpApi.Any) =>
  Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
    Effect.flatMap((Scalar) =>
      HttpLayerRouter.toHttpEffect(Scalar.layerHttpLayerRouter({ api, path: docsPath, scalar }))
    )
  )

/**
 * The API reference page at `/docs` (Scalar, bundled: no CDN, no web fonts, nothing fetched from elsewhere). Its
 * "try it" requests go to the prefix the API is mounted under.
 */
export const layer: Layer.Layer<never, never, HttpApi.Api> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const { api } = yield* HttpApi.Api
    const scope = yield* Effect.scope
    const page = yield* Effect.cached(Scope.extend(loadPage(api), scope))
    yield* router.get(
      docsPath,
      Effect.flatMap(page, (app) => Effect.scoped(app)).pipe(
        Effect.map((response) => (response.status === 200 ? rewrite(response) : response)),
        Effect.orDie
      )
    )
  })
)
