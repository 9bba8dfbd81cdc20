import Fastify, { type FastifyInstance } from "fastify"
import type { Layer } from "effect"
import { type PayrailHttp, WebHandler } from "@payrail/http"
import { sendWebResponse, toWebRequest } from "@payrail/example-embed-node-http/NodeBridge"

/**
 * The host application: its own route (`GET /hello`), plus the whole Payrail API under `/payments`
 * (`/payments/2025-10-13/customers`, `/payments/openapi.json`, `/payments/docs`).
 *
 * Payrail reads and bounds request bodies itself, so the `/payments` scope removes Fastify's body parsers (the raw
 * request stream goes to Payrail untouched) and hijacks the reply to stream Payrail's answer. Fastify passes the full
 * path, so the handler is told its prefix.
 */
export const makeApp = (
  services: Layer.Layer<PayrailHttp.Services>
): { readonly app: FastifyInstance; readonly dispose: () => Promise<void> } => {
  const payrail = WebHandler.make({ services, prefix: "/payments" })
  const app = Fastify()
  app.get("/hello", async () => ({ message: "hello from the host app" }))
  void app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined))
      scope.all("/*", async (request, reply) => {
        reply.hijack()
        await sendWebResponse(reply.raw, await payrail.handler(toWebRequest(request.raw)))
      })
    },
    { prefix: "/payments" }
  )
  return { app, dispose: payrail.dispose }
}
