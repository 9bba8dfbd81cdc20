import autocannon from "autocannon"

/** What one load run sends: method, path, headers, and optionally a fresh body or headers per request. */
export interface LoadSpec {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: string
  readonly connections: number
  /** Called for every request autocannon sends, with a counter unique within the bench process. */
  readonly perRequest?: (sequence: number) => { readonly body?: string; readonly headers?: Record<string, string> }
}

/** The outcome of one load run. Latencies are of every response (any status), measured by autocannon. */
export interface LoadResult {
  readonly requests: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Responses outside 2xx, by status (`{"409": 3}`); connection errors and timeouts separately. */
  readonly non2xx: number
  readonly statuses: Readonly<Record<string, number>>
  readonly errors: number
  readonly timeouts: number
}

let sequence = 0
const runId = globalThis.crypto.randomUUID().slice(0, 8)

/** A value unique to this request within every run of the bench (runs share the database). */
export const unique = (index: number | string): string => `${runId}-${index}`

const percentile = (sorted: Float64Array, fraction: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN)

/**
 * Runs autocannon against `baseUrl` for `seconds` with the spec's connections, no pipelining. Latencies are kept
 * with sub-millisecond precision from autocannon's `response` events (its own histogram rounds to whole ms and
 * leaves out non-2xx responses).
 */
export const runLoad = async (baseUrl: string, spec: LoadSpec, seconds: number): Promise<LoadResult> => {
  let latencies = new Float64Array(1 << 16)
  let count = 0
  const perRequest = spec.perRequest
  const options: autocannon.Options = {
    url: baseUrl,
    connections: spec.connections,
    pipelining: 1,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: spec.method,
        path: spec.path,
        headers: spec.headers,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(perRequest === undefined
          ? {}
          : {
              setupRequest: (request) => {
                const fresh = perRequest((sequence += 1))
                return {
                  ...request,
                  ...(fresh.body === undefined ? {} : { body: fresh.body }),
                  headers: { ...request.headers, ...fresh.headers }
                }
              }
            })
      }
    ]
  }
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, finished) => (error ? reject(error) : resolve(finished)))
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2)
        grown.set(latencies)
        latencies = grown
      }
      latencies[count] = responseTime
      count += 1
    })
  })
  const sorted = latencies.subarray(0, count).sort()
  const statuses: Record<string, number> = {}
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!status.startsWith("2") && stats.count !== undefined) statuses[status] = stats.count
  }
  return {
    requests: count,
    perSecond: count / result.duration,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    non2xx: result.non2xx,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts
  }
}
