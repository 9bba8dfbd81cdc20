import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServer from "@effect/platform/HttpServer"
import { Layer } from "effect"
import * as PayrailHttp from "./PayrailHttp.js"

/** A web-standard handler and the function that releases what it holds. */
export interface WebHandler {
  readonly handler: (request: Request) => Promise<Response>
  readonly dispose: () => Promise<void>
}

const normalizePrefix = (prefix: string): string => {
  const trimmed = prefix.replace(/\/+$/, "")
  return trimmed === "" || trimmed.startsWith("/") ? trimmed : `/${trimmed}`
}

/**
 * The whole API as a `(Request) => Promise<Response>` handler, for Express, Hono, Fastify, Next.js, Deno, Bun or a
 * bare `node:http` server. `services` provides the domain (see `PayrailHttp.Services`). With `prefix`, the API
 * answers under it (`/payments/2025-10-13/customers`) and requests outside it get the 404 error body.
 */
export const make = <E>(options: {
  readonly services: Layer.Layer<PayrailHttp.Services, E>
  readonly prefix?: string
}): WebHandler => {
  const { dispose, handler } = HttpApiBuilder.toWebHandler(
    PayrailHttp.layer.pipe(Layer.provide(options.services), Layer.provideMerge(HttpServer.layerContext))
  )
  const prefix = normalizePrefix(options.prefix ?? "")
  if (prefix === "") return { handler, dispose }
  return {
    dispose,
    handler: (request) => {
      const url = new URL(request.url)
      const inside = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)
      // Outside the prefix nothing of the API can match; "/" routes to the API's own 404 body.
      url.pathname = inside ? url.pathname.slice(prefix.length) || "/" : "/"
      return handler(new Request(url, request))
    }
  }
}
