import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"

/**
 * Adapts a web-standard `(Request) => Promise<Response>` handler to Node's `(req, res)`, as Express, Connect and
 * `node:http` use. The URL keeps the path as the framework passes it (Express strips the mount path).
 */
export const toNodeHandler =
  (handler: (request: Request) => Promise<Response>) =>
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item)
      else if (value !== undefined) headers.set(name, value)
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD"
    const request = new Request(url, {
      method: req.method ?? "GET",
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {})
    })
    handler(request)
      .then(async (response) => {
        res.statusCode = response.status
        response.headers.forEach((value, name) => {
          if (name !== "set-cookie") res.setHeader(name, value)
        })
        const cookies = response.headers.getSetCookie()
        if (cookies.length > 0) res.setHeader("set-cookie", cookies)
        if (response.body === null) return void res.end()
        await new Promise<void>((resolve, reject) =>
          Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>)
            .on("error", reject)
            .pipe(res)
            .on("finish", resolve)
            .on("error", reject)
        )
      })
      .catch((error: unknown) => (next ? next(error) : res.destroy(error instanceof Error ? error : undefined)))
  }
