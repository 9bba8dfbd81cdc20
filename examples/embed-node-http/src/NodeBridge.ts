import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import type { ReadableStream as NodeReadableStream } from "node:stream/web"

/**
 * A web-standard `Request` for a Node request: the URL keeps the path as the framework passes it (Express strips
 * its mount path, `node:http` and Fastify do not), every header is kept (repeated ones appended), and the body is
 * streamed from the request, not buffered.
 */
export const toWebRequest = (req: IncomingMessage): Request => {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD"
  return new Request(url, {
    method: req.method ?? "GET",
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {})
  })
}

/**
 * Writes a web-standard `Response` to a Node response: its status, its headers (each `Set-Cookie` kept apart) and
 * its body streamed. Resolves when the body is written.
 */
export const sendWebResponse = async (res: ServerResponse, response: Response): Promise<void> => {
  res.statusCode = response.status
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value)
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader("set-cookie", cookies)
  if (response.body === null) return void res.end()
  await new Promise<void>((resolve, reject) =>
    Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>)
      .on("error", reject)
      .pipe(res)
      .on("finish", resolve)
      .on("error", reject)
  )
}

/**
 * Adapts a web-standard `(Request) => Promise<Response>` handler to Node's `(req, res, next?)`, as `node:http`,
 * Express and Connect use. A failure goes to `next` when there is one, else destroys the response.
 */
export const toNodeHandler =
  (handler: (request: Request) => Promise<Response>) =>
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    handler(toWebRequest(req))
      .then((response) => sendWebResponse(res, response))
      .catch((error: unknown) => (next ? next(error) : res.destroy(error instanceof Error ? error : undefined)))
  }
