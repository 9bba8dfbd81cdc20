import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Effect, type Layer } from "effect"
import { PayrailApi } from "@payrail/api"

// The paths of the endpoints the contract marks deprecated (`OpenApi.Deprecated`), with their methods.
const deprecated: ReadonlyArray<{ readonly method: string; readonly path: string }> = (() => {
  const found: Array<{ method: string; path: string }> = []
  HttpApi.reflect(PayrailApi.PayrailApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      if (Context.getOrElse(endpoint.annotations, OpenApi.Deprecated, () => false)) {
        found.push({ method: endpoint.method, path: endpoint.path })
      }
    }
  })
  return found
})()

const isDeprecated = (method: string, url: string): boolean => {
  const path = url.split("?", 1)[0] ?? url
  return deprecated.some((endpoint) => endpoint.method === method && path.endsWith(endpoint.path))
}

const marked = HttpApp.appendPreResponseHandler((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "deprecation", "true"))
)

/**
 * Answers every request to a deprecated endpoint (the same-currency transfers) with `Deprecation: true`, as the
 * HTTP Deprecation header field specifies, so clients learn it from any response, error answers included; the
 * OpenAPI document marks the operations `deprecated`. The API may be mounted under any prefix, so paths match by
 * their end.
 */
export const layer: Layer.Layer<never> = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    // A pre-response handler runs on whatever response leaves, the error bodies made after this middleware too.
    isDeprecated(request.method, request.url) ? Effect.zipRight(marked, app) : app
  )
)
