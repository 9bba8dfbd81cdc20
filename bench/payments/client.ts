import { Agent, request } from "node:http"
import type { ReferenceServer } from "../http/servers.js"

/** A JSON answer of the reference server, with the time from sending the request to its last byte. */
export interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
  readonly ms: number
}

/**
 * A client of one reference server over `connections` kept-alive connections (node:http, lighter on the bench
 * process's CPU than fetch). A connection error answers status 0 with the error's message in `body.error`.
 */
export const clientOf = (server: ReferenceServer, connections: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
  const { hostname, port } = new URL(server.baseUrl)
  const send = (method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve) => {
      const payload = body === undefined ? undefined : JSON.stringify(body)
      const started = performance.now()
      const outgoing = request(
        {
          agent,
          host: hostname,
          port,
          method,
          path: `/2025-10-13${path}`,
          headers: {
            authorization: server.authorization,
            ...(payload === undefined
              ? {}
              : { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }),
            ...headers
          }
        },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8")
            let parsed: Record<string, unknown> = {}
            try {
              parsed = text === "" ? {} : (JSON.parse(text) as Record<string, unknown>)
            } catch {
              parsed = { text }
            }
            resolve({ status: response.statusCode ?? 0, body: parsed, ms: performance.now() - started })
          })
        }
      )
      outgoing.on("error", (error) =>
        resolve({ status: 0, body: { error: error.message }, ms: performance.now() - started })
      )
      outgoing.end(payload)
    })
  return {
    send,
    /** Like `send`, but a non-2xx answer is an error naming the call. */
    expect: async (method: "GET" | "POST", path: string, body?: unknown, headers?: Record<string, string>) => {
      const answer = await send(method, path, body, headers)
      if (answer.status < 200 || answer.status > 299) {
        throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
      }
      return answer.body
    },
    close: () => agent.destroy()
  }
}

export type Client = ReturnType<typeof clientOf>
