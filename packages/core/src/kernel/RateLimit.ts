/**
 * A rate limit and the arithmetic every limiter shares: the generic cell rate algorithm (GCRA). A limit admits
 * `burst` events at once from rest, then one more every `intervalMillis`; so "20 per minute" admits 20 at once and
 * then one every 3 seconds, and never more than `burst` within any `burst * intervalMillis`. Its whole state per
 * key is one number, the theoretical arrival time (`tat`, epoch milliseconds): the key is at rest once it has
 * passed. A refused event changes nothing, so a client that keeps knocking does not lengthen its own wait.
 */
export interface RateLimit {
  /** Names the limit in the refusal's `details.limit`: a fixed identifier, never input. */
  readonly name: string
  /** Events admitted at once from rest; at least 1. */
  readonly burst: number
  /** Milliseconds after which one more event is admitted; a positive whole number. */
  readonly intervalMillis: number
}

/** What a limiter answers for one event: admitted, or refused until `retryAfterMillis` have passed. */
export type Admission = { readonly admitted: true } | { readonly admitted: false; readonly retryAfterMillis: number }

/** `count` events per minute, all of them admitted at once from rest. */
export const perMinute = (name: string, count: number): RateLimit => perWindow(name, count, 60_000)

/** `count` events per `windowMillis`, all of them admitted at once from rest. */
export const perWindow = (name: string, count: number, windowMillis: number): RateLimit => ({
  name,
  burst: count,
  intervalMillis: Math.max(1, Math.ceil(windowMillis / count))
})

/** `burst` events at once from rest, refilled at `perSecond` events a second. */
export const tokenBucket = (name: string, burst: number, perSecond: number): RateLimit => ({
  name,
  burst,
  intervalMillis: Math.max(1, Math.ceil(1000 / perSecond))
})

/** How far ahead of now the theoretical arrival time may be for one more event to be admitted. */
export const toleranceMillis = (limit: RateLimit): number => (limit.burst - 1) * limit.intervalMillis

/** The outcome of one event: whether it is admitted, and the key's state afterwards. */
export interface Step {
  readonly admission: Admission
  /** The theoretical arrival time to store: advanced by one interval when admitted, unchanged when refused. */
  readonly tat: number
}

/** One event at `nowMillis` for a key whose stored theoretical arrival time is `tat` (undefined: at rest). */
export const step = (limit: RateLimit, tat: number | undefined, nowMillis: number): Step => {
  const from = Math.max(tat ?? nowMillis, nowMillis)
  const ahead = from - nowMillis
  const tolerance = toleranceMillis(limit)
  if (ahead > tolerance) {
    return { admission: { admitted: false, retryAfterMillis: ahead - tolerance }, tat: from }
  }
  return { admission: { admitted: true }, tat: from + limit.intervalMillis }
}

/** The whole seconds a client is told to wait (`Retry-After`): rounded up, at least 1. */
export const retryAfterSeconds = (retryAfterMillis: number): number => Math.max(1, Math.ceil(retryAfterMillis / 1000))
