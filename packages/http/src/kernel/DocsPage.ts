import {
  type HttpApi,
  HttpApiBuilder,
  HttpApiScalar,
  HttpBody,
  HttpServerRequest,
  HttpServerResponse,
  type HttpApp
} from "@effect/platform"
import { Effect, Layer } from "effect"
import { PayrailApi } from "@payrail/api"

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

const servePageFromItsMountPoint = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    request.method === "GET" && (request.url === docsPath || request.url.startsWith(`${docsPath}?`))
      ? Effect.map(app, (response) => (response.status === 200 ? rewrite(response) : response))
      : app
  )

/**
 * The API reference page at `/docs` (Scalar, bundled: no CDN, no web fonts, nothing fetched from elsewhere). Its
 * "try it" requests go to the prefix the API is mounted under.
 */
export const layer: Layer.Layer<never, never, HttpApi.Api> = Layer.mergeAll(
  // No web fonts from Scalar's servers; an empty icon, so browsers do not ask the host app for `/favicon.ico`.
  HttpApiScalar.layer({ path: docsPath, scalar: { withDefaultFonts: false, favicon: "data:," } }),
  HttpApiBuilder.middleware(PayrailApi.PayrailApi, servePageFromItsMountPoint)
)
