import { createServer, type IncomingMessage, type Server } from "node:http"
import { Webhook } from "standardwebhooks"

/** A webhook as Payrail sends it (docs/webhooks.md): the event's id, its type, when it happened and the resource. */
export interface PayrailEvent {
  readonly id: string
  readonly type: string
  readonly timestamp: string
  /** The resource as of the event (a transaction, a customer, …); absent on `TEST`. */
  readonly data?: { readonly id?: string; readonly status?: string } & Record<string, unknown>
}

/** What the receiver is told to do. */
export interface ReceiverOptions {
  /** The platform's `whsec_…` signing secret (shown once: at creation, or by `POST /webhooks/secret/rotate`). */
  readonly secret: string
  /** Called once per verified event id, in the order they arrive; a throw answers 500 so Payrail retries. */
  readonly onEvent: (event: PayrailEvent) => void | Promise<void>
  /** The path it listens on; other paths answer 404. */
  readonly path?: string
}

/** Bodies larger than this are refused before they are verified (Payrail's own envelopes are far smaller). */
export const bodyBytesMax = 1024 * 1024

class TooLarge extends Error {}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    size += buffer.length
    if (size > bodyBytesMax) throw new TooLarge()
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** The `webhook-*` headers as `standardwebhooks` takes them (single values only). */
const headersOf = (request: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value
  return headers
}

/**
 * A `node:http` server that accepts Payrail's webhooks at `path` (default `/webhooks`):
 * - `POST` whose raw body and `webhook-id`/`webhook-timestamp`/`webhook-signature` headers verify with the secret
 *   (an HMAC over the exact bytes, a timestamp within 5 minutes) is handed to `onEvent` once and answered 200;
 * - the same event id again answers 409, which Payrail counts as delivered and does not retry (delivery is at least
 *   once; this in-memory set stands in for the receiver's database);
 * - a body or header that does not verify (tampered, another secret, too old) answers 401 and reaches no handler.
 */
export const make = (options: ReceiverOptions): Server => {
  const webhook = new Webhook(options.secret)
  const path = options.path ?? "/webhooks"
  const seen = new Set<string>()
  return createServer((request, response) => {
    if ((request.url ?? "/").split("?")[0] !== path) return void response.writeHead(404).end()
    if (request.method !== "POST") return void response.writeHead(405, { allow: "POST" }).end()
    void (async () => {
      const body = await readBody(request)
      let event: PayrailEvent
      try {
        event = webhook.verify(body, headersOf(request)) as PayrailEvent
      } catch {
        return void response.writeHead(401).end()
      }
      if (seen.has(event.id)) return void response.writeHead(409).end()
      await options.onEvent(event)
      seen.add(event.id)
      response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}')
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(error instanceof TooLarge ? 413 : 500).end()
      else response.destroy()
    })
  })
}

/** One line per event, as `main.ts` prints it: `<type> <resource id> <status>` (the last two when present). */
export const summarize = (event: PayrailEvent): string =>
  [event.type, event.data?.id, event.data?.status].filter((part) => part !== undefined).join(" ")
