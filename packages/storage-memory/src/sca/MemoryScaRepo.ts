import { DateTime, Effect, Layer, Option } from "effect"
import { EnrolledFactor, FactorReset, PendingChallenge, ScaLockout, ScaRepo } from "@payrail/core"
import { MemoryState, removeEntry, setEntry } from "../kernel/MemoryState.js"

// NUL never occurs in a platform, customer or record id, so a tuple maps to one string.
const keyOf = (...parts: ReadonlyArray<string>) => parts.join("\u0000")

/**
 * `ScaRepo` in memory: factors (oldest first, as PostgreSQL orders them), challenges, guards, resets and trusted beneficiaries in tables keyed by platform.
 * `takeChallenge` and `recordChallengeFailure` read and change a challenge in one atomic step, so of concurrent takes
 * exactly one gets `true` and every failure is counted. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<ScaRepo.ScaRepo, never, MemoryState> = Layer.effect(
  ScaRepo.ScaRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const factors = state.table<EnrolledFactor.EnrolledFactor>("scaFactors")
    const challenges = state.table<PendingChallenge.PendingChallenge>("scaChallenges")
    const guards = state.table<ScaLockout.LoginGuard>("scaGuards")
    const resets = state.table<FactorReset.FactorReset>("scaResets")
    const trusted = state.table<string>("scaTrustedBeneficiaries")
    const prefix = (platformId: string) => keyOf(platformId, "")

    return ScaRepo.ScaRepo.of({
      putFactor: (platformId, factor) =>
        state.write(() => [undefined, setEntry(factors, keyOf(platformId, factor.id), factor)]),
      listFactors: (platformId, customerId) =>
        Effect.sync(() =>
          [...factors.entries()]
            .filter(([key, factor]) => key.startsWith(prefix(platformId)) && factor.customerId === customerId)
            .map(([, factor]) => factor)
            .sort(
              (a, b) =>
                DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) ||
                (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
            )
        ),
      deleteFactor: (platformId, customerId, id) =>
        state.write((): readonly [boolean, () => void] => {
          const key = keyOf(platformId, id)
          return factors.get(key)?.customerId === customerId ? [true, removeEntry(factors, key)] : [false, () => {}]
        }),
      putChallenge: (platformId, challenge) =>
        state.write(() => [undefined, setEntry(challenges, keyOf(platformId, challenge.id), challenge)]),
      findChallenge: (platformId, id) => Effect.sync(() => Option.fromNullable(challenges.get(keyOf(platformId, id)))),
      findChallengeFor: (platformId, customerId, purpose, subjectId) =>
        Effect.sync(() =>
          Option.fromNullable(
            [...challenges.entries()]
              .filter(
                ([key, c]) =>
                  key.startsWith(prefix(platformId)) &&
                  c.customerId === customerId &&
                  c.purpose === purpose &&
                  c.subjectId === subjectId
              )
              .map(([, c]) => c)
              .at(-1)
          )
        ),
      takeChallenge: (platformId, id) =>
        state.write((): readonly [boolean, () => void] => {
          const key = keyOf(platformId, id)
          return challenges.has(key) ? [true, removeEntry(challenges, key)] : [false, () => {}]
        }),
      recordChallengeFailure: (platformId, id) =>
        state.write((): readonly [number, () => void] => {
          const key = keyOf(platformId, id)
          const found = challenges.get(key)
          if (found === undefined) return [0, () => {}]
          const failedAttempts = found.failedAttempts + 1
          return [
            failedAttempts,
            setEntry(challenges, key, new PendingChallenge.PendingChallenge({ ...found, failedAttempts }))
          ]
        }),
      findGuard: (platformId, customerId) =>
        Effect.sync(() => Option.fromNullable(guards.get(keyOf(platformId, customerId)))),
      putGuard: (platformId, guard) =>
        state.write(() => [undefined, setEntry(guards, keyOf(platformId, guard.customerId), guard)]),
      putReset: (platformId, reset) =>
        state.write(() => [undefined, setEntry(resets, keyOf(platformId, reset.id), reset)]),
      findReset: (platformId, customerId, id) =>
        Effect.sync(() =>
          Option.fromNullable(resets.get(keyOf(platformId, id))).pipe(
            Option.filter((reset) => reset.customerId === customerId)
          )
        ),
      setTrusted: (platformId, customerId, externalAccountId, isTrusted) =>
        state.write(() => [
          undefined,
          isTrusted
            ? setEntry(trusted, keyOf(platformId, externalAccountId), customerId)
            : removeEntry(trusted, keyOf(platformId, externalAccountId))
        ]),
      isTrusted: (platformId, externalAccountId) => Effect.sync(() => trusted.has(keyOf(platformId, externalAccountId)))
    })
  })
)
