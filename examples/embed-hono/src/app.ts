import { Hono } from "hono"
import type { Layer } from "effect"
import { type PayrailHttp, WebHandler } from "@payrail/http"

/**
 * The host application: its own route (`GET /hello`), plus the whole Payrail API under `/payments`
 * (`/payments/2025-10-13/customers`, `/payments/openapi.json`, `/payments/docs`). Hono speaks web-standard
 * requests, so the handler takes `c.req.raw` as it is; Hono passes the full path, so the handler is told its prefix.
 */
export const makeApp = (
  services: Layer.Layer<PayrailHttp.Services>
): { readonly app: Hono; readonly dispose: () => Promise<void> } => {
  const payrail = WebHandler.make({ services, prefix: "/payments" })
  const app = new Hono()
  app.get("/hello", (c) => c.json({ message: "hello from the host app" }))
  app.all("/payments/*", (c) => payrail.handler(c.req.raw))
  return { app, dispose: payrail.dispose }
}
