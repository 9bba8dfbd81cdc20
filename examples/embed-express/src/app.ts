import express, { type Express } from "express"
import type { Layer } from "effect"
import { type PayrailHttp, WebHandler } from "@payrail/http"
import { toNodeHandler } from "@payrail/example-embed-node-http/NodeBridge"

/**
 * The host application: its own routes, plus the whole Payrail API under `/payments`
 * (`/payments/2025-10-13/customers`, `/payments/openapi.json`, `/payments/docs`). Express strips the mount path,
 * so the handler is given no prefix.
 */
export const makeApp = (
  services: Layer.Layer<PayrailHttp.Services>
): { readonly app: Express; readonly dispose: () => Promise<void> } => {
  const payrail = WebHandler.make({ services })
  const app = express()
  app.get("/hello", (_request, response) => {
    response.json({ message: "hello from the host app" })
  })
  app.use("/payments", toNodeHandler(payrail.handler))
  return { app, dispose: payrail.dispose }
}
