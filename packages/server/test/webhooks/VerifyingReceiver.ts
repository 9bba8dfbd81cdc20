import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

/** A webhook receiver on loopback that verifies each delivery with the `standardwebhooks` library. */
export interface VerifyingReceiver {
  /** The endpoint URL (`/hooks`). */
  readonly url: string
  /** The id of each delivery it accepted, in arrival order (an id delivered twice appears twice). */
  readonly accepted: Array<string>
  /**
   * Every verified request in arrival order: its webhook id, the envelope's `type` and `timestamp`, the status answered and when
   * it arrived (`Date.now()`), including the ones answered 500 under `failFirst`.
   */
  readonly log: Array<{
    readonly id: string
    readonly type: string
    readonly timestamp: string
    readonly status: number
    readonly atMs: number
    /** The envelope's `data` (absent for `TEST`). */
    readonly data?: unknown
  }>
  /** How many deliveries failed verification (answered 401). */
  readonly refused: () => number
  /** Sets the secret deliveries are verified with. */
  readonly trust: (secret: string) => void
  readonly close: () => Promise<void>
}

/**
 * Starts a receiver answering 200 to a verified delivery, after `delayMs`, and 401 to any other request. With
 * `failFirst`, the first that many verified deliveries are answered 500 instead (and not counted as accepted).
 */
export const startVerifyingReceiver = async (
  options: { readonly delayMs?: number; readonly failFirst?: number } = {}
): Promise<VerifyingReceiver> => {
  let secret = ""
  let refused = 0
  let toFail = options.failFirst ?? 0
  const accepted: Array<string> = []
  const log: VerifyingReceiver["log"] = []
  const receive = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : value])
      ) as Record<string, string>
      try {
        const { data, id, timestamp, type } = new Webhook(secret).verify(
          Buffer.concat(chunks).toString("utf8"),
          headers
        ) as { id: string; type: string; timestamp: string; data?: unknown }
        const status = toFail > 0 ? 500 : 200
        toFail -= 1
        log.push({ id, type, timestamp, status, atMs: Date.now(), ...(data === undefined ? {} : { data }) })
        if (status === 200) accepted.push(id)
        setTimeout(() => response.writeHead(status).end(), options.delayMs ?? 0)
      } catch {
        refused += 1
        response.writeHead(401).end()
      }
    })
  }
  const server: Server = createServer(receive)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    accepted,
    log,
    refused: () => refused,
    trust: (value) => {
      secret = value
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
