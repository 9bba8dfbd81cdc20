import { DateTime, Effect, Layer, Option } from "effect"
import { OtpChallenge, OtpChallengeRepo } from "@payrail/core"
import { MemoryState, removeEntry, setEntry } from "../kernel/MemoryState.js"

// NUL never occurs in a platform id, so the pair maps to one string and back.
const keyOf = (platformId: string, authMethodId: string) => `${platformId}\u0000${authMethodId}`

/**
 * `OtpChallengeRepo` in memory: one challenge per (platform, credential), a new one replacing the old. `take` and
 * `recordFailure` check that the stored challenge is still the one issued at `issuedAt` and change it in one atomic
 * step, so of concurrent correct answers exactly one takes it. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<OtpChallengeRepo.OtpChallengeRepo, never, MemoryState> = Layer.effect(
  OtpChallengeRepo.OtpChallengeRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<OtpChallenge.OtpChallenge>("otpChallenges")

    // The stored challenge of the credential if it is the one issued at `issuedAt`.
    const issued = (key: string, issuedAt: DateTime.Utc) =>
      Option.fromNullable(rows.get(key)).pipe(
        Option.filter((challenge) => DateTime.Equivalence(challenge.issuedAt, issuedAt))
      )

    return {
      put: (platformId, challenge) =>
        state.write(() => [undefined, setEntry(rows, keyOf(platformId, challenge.authMethodId), challenge)]),
      find: (platformId, authMethodId) =>
        Effect.sync(() => Option.fromNullable(rows.get(keyOf(platformId, authMethodId)))),
      take: (platformId, authMethodId, issuedAt) =>
        state.write((): readonly [boolean, () => void] => {
          const key = keyOf(platformId, authMethodId)
          return Option.isSome(issued(key, issuedAt)) ? [true, removeEntry(rows, key)] : [false, () => {}]
        }),
      discard: (platformId, authMethodId) =>
        state.write((): readonly [void, () => void] => {
          const key = keyOf(platformId, authMethodId)
          return [undefined, rows.has(key) ? removeEntry(rows, key) : () => {}]
        }),
      recordFailure: (platformId, authMethodId, issuedAt) =>
        state.write((): readonly [number, () => void] => {
          const key = keyOf(platformId, authMethodId)
          const found = issued(key, issuedAt)
          if (Option.isNone(found)) return [0, () => {}]
          const failedAttempts = found.value.failedAttempts + 1
          return [
            failedAttempts,
            setEntry(rows, key, new OtpChallenge.OtpChallenge({ ...found.value, failedAttempts }))
          ]
        })
    }
  })
)
