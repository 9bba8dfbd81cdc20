import { readFile } from "node:fs/promises"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { once } from "node:events"
import type { AddressInfo } from "node:net"
import * as PageBundle from "./PageBundle.js"
import * as Payrail from "./Payrail.js"
import * as WalletRoutes from "./WalletRoutes.js"

/** The running example: where the page is, Payrail inside it, and how to stop both. */
export interface WalletWeb {
  /** `http://localhost:<port>`: passkeys are bound to the RP id `localhost`, so the page must be opened there. */
  readonly origin: string
  readonly payrail: Payrail.Payrail
  readonly close: () => Promise<void>
}

const indexHtml = new URL("../public/index.html", import.meta.url)

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    size += buffer.length
    if (size > 1_000_000) throw new WalletRoutes.RouteError(413, { code: "TOO_LARGE", reason: "body too large" })
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

const send = (response: ServerResponse, status: number, type: string, body: string | Buffer) => {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body)
}

// The Payrail API itself, under /payrail, for exploring the sandbox with curl and the platform credentials.
const forward = async (payrail: Payrail.Payrail, request: IncomingMessage, response: ServerResponse) => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value)
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await readBody(request)
  const answer = await payrail.handler(
    new Request(`http://localhost${request.url ?? "/"}`, {
      method: request.method ?? "GET",
      headers,
      ...(body === undefined ? {} : { body: new Uint8Array(body) })
    })
  )
  response.writeHead(answer.status, Object.fromEntries(answer.headers))
  response.end(Buffer.from(await answer.arrayBuffer()))
}

/**
 * Starts the example on `port` (0: any free port): Payrail in memory with a sandbox platform whose passkeys belong
 * to `localhost` and to this page's origin (`PATCH /config`), the page and its bundled module, and the page's JSON
 * routes (`WalletRoutes`).
 */
export const start = async (options: { readonly port?: number } = {}): Promise<WalletWeb> => {
  const payrail = await Payrail.start()
  const [html, script] = await Promise.all([readFile(indexHtml, "utf8"), PageBundle.bundle()])
  const routes = WalletRoutes.make(payrail)
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0] ?? "/"
    void (async () => {
      if (path === "/" && request.method === "GET") return send(response, 200, "text/html; charset=utf-8", html)
      if (path === "/app.js" && request.method === "GET")
        return send(response, 200, "text/javascript; charset=utf-8", script)
      if (path === "/payrail" || path.startsWith("/payrail/")) return await forward(payrail, request, response)
      if (!path.startsWith("/api/")) return send(response, 404, "text/plain", "not found")
      const text = (await readBody(request)).toString("utf8")
      const answer = await routes(request.method ?? "GET", path, text === "" ? {} : JSON.parse(text))
      send(response, 200, "application/json", JSON.stringify(answer))
    })().catch((error: unknown) => {
      const refusal =
        error instanceof WalletRoutes.RouteError
          ? error
          : new WalletRoutes.RouteError(500, { code: "INTERNAL", reason: String(error) })
      if (!response.headersSent) send(response, refusal.status, "application/json", JSON.stringify(refusal.body))
      else response.destroy()
    })
  })
  // Only this machine: the page is for local development (http://localhost is a secure context for WebAuthn).
  server.listen(options.port ?? 0, "localhost")
  await once(server, "listening")
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`

  // The platform's passkeys: RP id localhost, and this page as their one origin.
  const configured = await payrail.call("PATCH", "/config", {
    embeddedWalletConfig: { appName: "Payrail wallet example", passkeyRpId: "localhost", passkeyOrigins: [origin] }
  })
  if (configured.status !== 200) throw new Error(`PATCH /config answered ${configured.status}`)

  return {
    origin,
    payrail,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await payrail.dispose()
    }
  }
}
