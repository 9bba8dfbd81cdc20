import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

/** A webhook receiver on loopback that verifies each delivery with the `standardwebhooks` library. */
export interface VerifyingReceiver {
  /** The endpoint URL (`/hooks`). */
  readonly url: string
  /** The id of each delivery it accepted, in arrival order (an id delivered twice appears twice). */
  readonly accepted: Array<string>
  /** How many deliveries failed verification (answered 401). */
  readonly refused: () => number
  /** Sets the secret deliveries are verified with. */
  readonly trust: (secret: string) => void
  readonly close: () => Promise<void>
}

/** Starts a receiver answering 200 to a verified delivery, after `delayMs`, and 401 to any other request. */
export const startVerifyingReceiver = async (
  options: { readonly delayMs?: number } = {}
): Promise<VerifyingReceiver> => {
  let secret = ""
  let refused = 0
  const accepted: Array<string> = []
  const receive = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : value])
      ) as Record<string, string>
      try {
        const { id } = new Webhook(secret).verify(Buffer.concat(chunks).toString("utf8"), headers) as { id: string }
        accepted.push(id)
        setTimeout(() => response.writeHead(200).end(), options.delayMs ?? 0)
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
