import { Agent, request } from "node:http"
import type { ReferenceServer } from "../http/servers.js"
import { Signer } from "../../packages/signer/src/index.js"
import type { Throwaway } from "./seed.js"

/** A signed retry ready to send: the session to revoke, its challenge's payload, and the two headers. */
export interface Prepared {
  readonly throwaway: Throwaway
  readonly payloadToSign: string
  readonly stamp: string
  readonly requestId: string
}

/** What the server answered to a request without a body to read: its status, the body text, and the latency. */
interface Answer {
  readonly status: number
  readonly text: string
  readonly ms: number
}

/**
 * `DELETE /auth/sessions/{id}` over `connections` kept-alive connections (node:http: the client `bench/payments`
 * uses sends only GET and POST). A connection error answers status 0.
 */
export const revoker = (server: ReferenceServer, connections: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
  const { hostname, port } = new URL(server.baseUrl)
  const send = (sessionId: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve) => {
      const started = performance.now()
      const outgoing = request(
        {
          agent,
          host: hostname,
          port,
          method: "DELETE",
          path: `/2025-10-13/auth/sessions/${encodeURIComponent(sessionId)}`,
          headers: { authorization: server.authorization, ...headers }
        },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              text: Buffer.concat(chunks).toString("utf8"),
              ms: performance.now() - started
            })
          )
        }
      )
      outgoing.on("error", (error) => resolve({ status: 0, text: error.message, ms: performance.now() - started }))
      outgoing.end()
    })
  return { send, close: () => agent.destroy() }
}

export type Revoker = ReturnType<typeof revoker>

/**
 * The first leg of every throwaway session's revocation (`concurrency` at a time), each 202 challenge stamped at
 * once with the wallet's session key (`Signer.signRetry`): the measured run then sends only retries, and the
 * load generator's signing is not counted.
 */
export const prepare = async (
  client: Revoker,
  throwaways: ReadonlyArray<Throwaway>,
  concurrency: number
): Promise<ReadonlyArray<Prepared>> => {
  const prepared: Array<Prepared> = new Array<Prepared>(throwaways.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < throwaways.length; index = next++) {
      const throwaway = throwaways[index] as Throwaway
      const first = await client.send(throwaway.sessionId)
      if (first.status !== 202) throw new Error(`the first leg answered ${first.status}: ${first.text}`)
      const challenge = JSON.parse(first.text) as Signer.SignedRetryChallenge
      const headers = Signer.signRetry({ challenge, privateKey: throwaway.wallet.privateKey })
      prepared[index] = {
        throwaway,
        payloadToSign: challenge.payloadToSign,
        stamp: headers["Service-Wallet-Signature"],
        requestId: headers["Request-Id"]
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return prepared
}

/** One closed-loop run of retries. */
export interface RetryRun {
  readonly retries: number
  /** How many prepared retries were sent (answered or not): the next run starts after them. */
  readonly sent: number
  readonly seconds: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Answers other than 204, by status and code (`401 REQUEST_ID_REUSED`). */
  readonly failures: Readonly<Record<string, number>>
  /** Whether the prepared retries ran out before the time did. */
  readonly exhausted: boolean
}

const percentile = (sorted: Float64Array, fraction: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN)

const codeOf = (text: string): string => {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code
    return typeof code === "string" ? code : ""
  } catch {
    return ""
  }
}

/**
 * `clients` closed loops, each sending the next prepared retry (`DELETE /auth/sessions/{id}` with
 * `Service-Wallet-Signature` and `Request-Id`) as soon as its previous one answered, until `seconds` passed or the
 * prepared retries ran out. Only 204s count as retries; the rate is over the time until the last answer.
 */
export const runRetries = async (
  client: Revoker,
  prepared: ReadonlyArray<Prepared>,
  clients: number,
  seconds: number
): Promise<RetryRun> => {
  const latencies = new Float64Array(prepared.length)
  let count = 0
  let next = 0
  const failures: Record<string, number> = {}
  const started = performance.now()
  const deadline = started + seconds * 1000
  const loop = async () => {
    while (performance.now() < deadline && next < prepared.length) {
      const retry = prepared[next++] as Prepared
      const answer = await client.send(retry.throwaway.sessionId, {
        "Service-Wallet-Signature": retry.stamp,
        "Request-Id": retry.requestId
      })
      if (answer.status === 204) {
        latencies[count++] = answer.ms
      } else {
        const key = `${answer.status} ${codeOf(answer.text)}`.trim()
        failures[key] = (failures[key] ?? 0) + 1
      }
    }
  }
  await Promise.all(Array.from({ length: clients }, loop))
  const elapsed = (performance.now() - started) / 1000
  const sorted = latencies.subarray(0, count).sort()
  return {
    retries: count,
    sent: Math.min(next, prepared.length),
    seconds: elapsed,
    perSecond: count / elapsed,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    failures,
    exhausted: next >= prepared.length
  }
}
