import { createServer, type Server } from "node:http"
import type { Layer } from "effect"
import { type PayrailHttp, WebHandler } from "@payrail/http"
import { toNodeHandler } from "./NodeBridge.js"

/** Where Payrail is mounted: `node:http` passes the full path, so the handler is told its prefix. */
export const mountPath = "/payments"

/**
 * The host server: its own route (`GET /hello`), the whole Payrail API under `/payments`
 * (`/payments/2025-10-13/customers`, `/payments/openapi.json`, `/payments/docs`), and a plain 404 elsewhere.
 */
export const makeServer = (
  services: Layer.Layer<PayrailHttp.Services>
): { readonly server: Server; readonly dispose: () => Promise<void> } => {
  const payrail = WebHandler.make({ services, prefix: mountPath })
  const api = toNodeHandler(payrail.handler)
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    if (path === mountPath || path.startsWith(`${mountPath}/`)) return api(req, res)
    if (path === "/hello" && req.method === "GET") {
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ message: "hello from the host app" }))
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found")
  })
  return { server, dispose: payrail.dispose }
}
