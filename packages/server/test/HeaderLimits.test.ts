import { mkdtemp, rm } from "node:fs/promises"
import { once } from "node:events"
import { maxHeaderSize } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rawExchange } from "./RawClient.js"
import { type RunningServer, startServer } from "./ServerProcess.js"

let server: RunningServer
let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "payrail-headers-"))
  server = await startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory", LOG_LEVEL: "Info" })
}, 200_000)

afterAll(async () => {
  server?.kill()
  await rm(dataDir, { recursive: true, force: true })
})

const customers = "/2025-10-13/customers"
// A value that must never come back: an error names the rule, not the input.
const marker = "HeaderMarker"

describe("requests Node's HTTP parser refuses before the app runs", () => {
  it("answers headers over the limit 431 REQUEST_HEADERS_TOO_LARGE with the error body, and closes", async () => {
    const padding = `${marker}${"x".repeat(20 * 1024)}`
    const response = await rawExchange(
      server.port,
      `GET ${customers} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${server.auth}\r\nX-Padding: ${padding}\r\n\r\n`
    )
    expect(response.status).toBe(431)
    expect(response.headers["content-type"]).toMatch(/^application\/json/)
    expect(response.headers["connection"]).toBe("close")
    expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.body))
    const body: unknown = JSON.parse(response.body)
    expect(body).toEqual({
      status: 431,
      code: "REQUEST_HEADERS_TOO_LARGE",
      message: expect.any(String),
      reason: expect.any(String),
      details: { rule: "max_header_size", maxHeaderBytes: maxHeaderSize }
    })
    expect(response.body).not.toContain(marker)
    // The server still answers.
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)
  })

  it("answers a long URL that takes the headers past the limit the same way", async () => {
    const response = await rawExchange(
      server.port,
      `GET ${customers}?email=${marker}${"y".repeat(20 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
    )
    expect(response.status).toBe(431)
    expect(JSON.parse(response.body)).toMatchObject({ status: 431, code: "REQUEST_HEADERS_TOO_LARGE" })
    expect(response.body).not.toContain(marker)
  })

  it("answers a malformed request line 400 INVALID_INPUT with the error body, and closes", async () => {
    const response = await rawExchange(server.port, `GET /${marker} HTTP/1.1 junk\r\nHost: 127.0.0.1\r\n\r\n`)
    expect(response.status).toBe(400)
    expect(response.headers["connection"]).toBe("close")
    const body: unknown = JSON.parse(response.body)
    expect(body).toEqual({
      status: 400,
      code: "INVALID_INPUT",
      message: expect.any(String),
      reason: expect.any(String)
    })
    expect(response.body).not.toContain(marker)
  })

  it("answers a malformed header 400 on a keep-alive connection that was already answered once", async () => {
    const socket = connect(server.port, "127.0.0.1")
    let received = ""
    socket.setEncoding("utf8")
    socket.on("data", (data: string) => (received += data))
    const closed = once(socket, "close")
    socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    while (!received.includes('{"status":"ok"}')) await new Promise((resolve) => setTimeout(resolve, 20))
    socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n")
    await closed
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*HTTP\/1\.1 400 Bad Request\r\n[\s\S]*"code":"INVALID_INPUT"/)
  })

  it("logs none of it above debug, and no stack", () => {
    const output = server.output()
    expect(output).not.toMatch(/HPE_| {4}at |ERROR|WARN/)
  })
})
