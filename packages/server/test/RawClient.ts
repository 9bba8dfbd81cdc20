import { readFileSync } from "node:fs"
import { Agent, request } from "node:http"
import { connect, type Socket } from "node:net"

/** What a raw HTTP exchange ended with: a response, or the connection failing first. */
export type Outcome =
  | {
      readonly status: number
      readonly headers: Record<string, string | Array<string> | undefined>
      readonly body: string
    }
  | { readonly error: string }

const chunk = Buffer.alloc(64 * 1024, "a")

/**
 * POSTs `bytes` of body to `path` with chunked transfer encoding (no Content-Length), as fast as the server takes
 * it, and resolves with the response or the connection error. Stops sending once a response arrives.
 *
 * The connection is kept alive, as browsers, `fetch` and curl keep theirs. A client that asks for `Connection:
 * close` (Node's `agent: false`) makes the server close once the request ends; when its last writes cross the
 * server's early 413 that close turns into a reset, and the reset discards the answer unread (about 1 in 600 such
 * uploads on a loaded machine; see docs/operating/server.md, "Request bodies").
 */
export const chunkedUpload = (options: {
  readonly port: number
  readonly path: string
  readonly auth: string
  readonly bytes: number
  readonly headers?: Record<string, string>
}): Promise<Outcome> =>
  new Promise((resolve) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const outgoing = request({
      host: "127.0.0.1",
      port: options.port,
      method: "POST",
      path: options.path,
      agent,
      headers: { authorization: options.auth, "content-type": "application/json", ...options.headers }
    })
    let sent = 0
    let answered = false
    let failure = ""
    outgoing.on("response", (response) => {
      answered = true
      let body = ""
      response.setEncoding("utf8")
      response.on("data", (data: string) => (body += data))
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body })
        outgoing.destroy()
        agent.destroy()
      })
    })
    // A write can fail once the server has answered and closed; the answer may still be read after it.
    outgoing.on("error", (error: NodeJS.ErrnoException) => (failure ||= error.code ?? error.message))
    outgoing.on("close", () => {
      resolve({ error: failure || "closed without a response" })
      agent.destroy()
    })
    const pump = () => {
      while (!answered && sent < options.bytes) {
        const size = Math.min(chunk.length, options.bytes - sent)
        sent += size
        if (!outgoing.write(chunk.subarray(0, size))) return void outgoing.once("drain", pump)
      }
      if (!answered) outgoing.end()
    }
    pump()
  })

/** A request whose body has started and then stopped arriving; `closed` resolves when the server drops it. */
export interface StalledUpload {
  readonly closed: Promise<string>
  readonly destroy: () => void
}

/** Sends the request line, the headers and `bytes` of a chunked body, then nothing more. */
export const stalledUpload = (options: {
  readonly port: number
  readonly path: string
  readonly auth: string
  readonly bytes: number
}): Promise<StalledUpload> =>
  new Promise((resolve, reject) => {
    const socket: Socket = connect(options.port, "127.0.0.1")
    let received = ""
    const closed = new Promise<string>((done) => {
      socket.on("data", (data) => (received += data.toString()))
      socket.on("close", () => done(received))
      socket.on("error", () => undefined)
    })
    socket.once("error", reject)
    socket.once("connect", () => {
      const body = "a".repeat(options.bytes)
      socket.write(
        `POST ${options.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${options.auth}\r\n` +
          `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
          `${options.bytes.toString(16)}\r\n${body}\r\n`,
        () => resolve({ closed, destroy: () => socket.destroy() })
      )
    })
  })

/** Opens a connection and sends only part of a request's headers. `closed` resolves when the server drops it. */
export const stalledHeaders = (
  port: number
): Promise<{ readonly closed: Promise<string>; readonly destroy: () => void }> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    let received = ""
    const closed = new Promise<string>((done) => {
      socket.on("data", (data) => (received += data.toString()))
      socket.on("close", () => done(received))
      socket.on("error", () => undefined)
    })
    socket.once("error", reject)
    socket.once("connect", () =>
      socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n", () =>
        resolve({ closed, destroy: () => socket.destroy() })
      )
    )
  })

/** A response read off a raw socket: its status line's code, its headers (names lower-cased) and its body. */
export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

/**
 * Writes `text` as is to a new connection and resolves with what the server sent back before closing it, parsed
 * (an answer without a `Content-Length` is read to the close). Fails when the server closes without answering, or
 * leaves the connection open for `timeoutMillis` after its answer.
 */
export const rawExchange = (port: number, text: string, timeoutMillis = 10_000): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    let received = ""
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the connection stayed open; received: ${JSON.stringify(received.slice(0, 500))}`))
    }, timeoutMillis)
    socket.setEncoding("utf8")
    socket.on("data", (data: string) => (received += data))
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearTimeout(timer)
      const [head = "", ...rest] = received.split("\r\n\r\n")
      const [statusLine = "", ...headerLines] = head.split("\r\n")
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN)
      if (Number.isNaN(status)) return reject(new Error(`no response: ${JSON.stringify(received.slice(0, 500))}`))
      const headers: Record<string, string> = {}
      for (const line of headerLines) {
        const colon = line.indexOf(":")
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ status, headers, body: rest.join("\r\n\r\n") })
    })
    socket.once("connect", () => socket.write(text))
  })

/** The resident memory of process `pid`, in MiB (VmRSS from /proc). */
export const residentMiB = (pid: number): number => {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  if (match === null) throw new Error(`no VmRSS for ${pid}`)
  return Number(match[1]) / 1024
}

/** Runs `task` over `items` with at most `concurrency` at a time, returning the results in order. */
export const mapConcurrently = async <A, B>(
  items: ReadonlyArray<A>,
  concurrency: number,
  task: (item: A) => Promise<B>
): Promise<Array<B>> => {
  const results: Array<B> = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index] as A)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}
