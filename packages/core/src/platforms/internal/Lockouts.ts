/**
 * Keys this process has seen a shared limit refuse, with when the refusal lifts: checked before anything else, so
 * that a locked-out client costs no storage round trip and no hashing until the lock lifts. At most `capacity` keys;
 * beyond it the earliest remembered goes first.
 */
export interface Lockouts {
  /** How long `key` stays locked from `nowMillis` (0: not locked). */
  readonly remainingMillis: (key: string, nowMillis: number) => number
  readonly lock: (key: string, untilMillis: number) => void
}

export const make = (capacity: number): Lockouts => {
  const until = new Map<string, number>()
  return {
    remainingMillis: (key, nowMillis) => {
      const lifts = until.get(key)
      if (lifts === undefined) return 0
      if (lifts <= nowMillis) {
        until.delete(key)
        return 0
      }
      return lifts - nowMillis
    },
    lock: (key, untilMillis) => {
      until.delete(key)
      if (until.size >= capacity) {
        const oldest = until.keys().next()
        if (oldest.done !== true) until.delete(oldest.value)
      }
      until.set(key, untilMillis)
    }
  }
}
