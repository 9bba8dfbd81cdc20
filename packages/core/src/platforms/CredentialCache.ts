import { Context, Duration, Redacted } from "effect"
import { constantTimeEquals } from "./ApiTokenSecret.js"
import type { Caller } from "./Caller.js"

/**
 * How long a verified credential is trusted without asking storage again, unless a change is observed first: 5
 * seconds unless provided otherwise (zero caches nothing). It bounds how long a revocation can go unseen by a
 * process that lost its view of changes without noticing.
 */
export class TimeToLive extends Context.Reference<TimeToLive>()("@payrail/core/CredentialCache/TimeToLive", {
  defaultValue: (): Duration.Duration => Duration.seconds(5)
}) {}

/** The most client ids kept; beyond it the oldest entry goes first. */
export const capacity = 10_000

interface Entry {
  readonly caller: Caller
  readonly secret: Redacted.Redacted<string>
  readonly version: number
  readonly expiresAt: number
}

/**
 * Credentials verified recently, keyed by client id. An entry answers only for the same secret, before its expiry,
 * and at the same `CredentialChanges` version it was read at, so any change to tokens or platforms (a revocation)
 * makes every entry stale at once. The secret is kept (redacted) to be compared in constant time, so a hit costs
 * no hashing; it never leaves this process and lives at most `timeToLiveMillis`.
 *
 * Deliberately a plain synchronous map: it is read on every authenticated request, and JavaScript runs one fiber
 * at a time, so each `find` and `remember` is atomic.
 */
export interface CredentialCache {
  readonly find: (
    clientId: string,
    secret: Redacted.Redacted<string>,
    version: number,
    nowMillis: number
  ) => Caller | undefined
  readonly remember: (
    clientId: string,
    secret: Redacted.Redacted<string>,
    caller: Caller,
    version: number,
    nowMillis: number
  ) => void
}

export const make = (options: { readonly timeToLiveMillis: number; readonly capacity: number }): CredentialCache => {
  const entries = new Map<string, Entry>()
  return {
    find: (clientId, secret, version, nowMillis) => {
      const entry = entries.get(clientId)
      if (entry === undefined) return undefined
      if (entry.version !== version || entry.expiresAt <= nowMillis) {
        entries.delete(clientId)
        return undefined
      }
      return constantTimeEquals(Redacted.value(entry.secret), Redacted.value(secret)) ? entry.caller : undefined
    },
    remember: (clientId, secret, caller, version, nowMillis) => {
      if (options.timeToLiveMillis <= 0 || options.capacity <= 0) return
      entries.delete(clientId)
      if (entries.size >= options.capacity) {
        const oldest = entries.keys().next()
        if (oldest.done !== true) entries.delete(oldest.value)
      }
      entries.set(clientId, { caller, secret, version, expiresAt: nowMillis + options.timeToLiveMillis })
    }
  }
}
