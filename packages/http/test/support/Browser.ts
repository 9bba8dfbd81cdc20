import { existsSync } from "node:fs"
import { once } from "node:events"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { type Browser, chromium } from "playwright-core"
import type { Harness } from "./Harness.js"

/** Debian's Chromium, which CI installs (apt-get install -y chromium); no browser is downloaded. */
export const chromiumPath = "/usr/bin/chromium"

/**
 * Whether a headless-browser suite runs, and its title: it skips only outside CI when Chromium is missing (saying
 * so in the title); under CI a missing browser fails instead of skipping.
 */
export const suite = (name: string): { readonly skip: boolean; readonly title: string } => {
  const skip = !existsSync(chromiumPath) && (process.env["CI"] ?? "") === ""
  return {
    skip,
    title: skip ? `${name}: SKIPPED, ${chromiumPath} not found (apt-get install -y chromium)` : name
  }
}

const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

/** Headless Chromium, quiet: no first-run, sync, component update or background traffic. */
export const launch = (): Promise<Browser> => chromium.launch({ executablePath: chromiumPath, args: flags })

const readBody = async (request: IncomingMessage): Promise<Buffer | undefined> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return chunks.length === 0 ? undefined : Buffer.concat(chunks)
}

/** How `bridge` maps what the browser asks for onto the harness. */
export interface BridgeOptions {
  /** The path the harness receives for the browser's URL, or `undefined` for a 404. The URL itself by default. */
  readonly route?: (url: string) => string | undefined
  /** Answers the URL itself instead of the harness (a stand-in page); says whether it did. */
  readonly intercept?: (url: string, response: ServerResponse) => boolean
  /** Passed to every harness request, e.g. `{ redirect: "manual" }` so the browser follows redirects itself. */
  readonly init?: RequestInit
}

/**
 * A real socket on 127.0.0.1 in front of the harness, so a browser talks to the API as it would to a server:
 * every request (method, headers, body) is passed to `harness.request` without the test's credentials, and the
 * answer is written back as it came. Close the server when done.
 */
export const bridge = async (
  harness: Harness,
  options: BridgeOptions = {}
): Promise<{ readonly server: Server; readonly origin: string }> => {
  const server = createServer((request, response) => {
    void (async () => {
      const url = request.url ?? "/"
      if (options.intercept?.(url, response) === true) return
      const path = options.route === undefined ? url : options.route(url)
      if (path === undefined) {
        response.writeHead(404).end()
        return
      }
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === "string") headers.set(name, value)
      const body = await readBody(request)
      const answered = await harness.request(path, {
        ...options.init,
        method: request.method ?? "GET",
        headers,
        auth: null,
        ...(body === undefined ? {} : { body: new Uint8Array(body) })
      })
      response.writeHead(answered.status, Object.fromEntries(answered.headers))
      response.end(Buffer.from(await answered.arrayBuffer()))
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error))
    })
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  return { server, origin: `http://127.0.0.1:${address.port}` }
}
