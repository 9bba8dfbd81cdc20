import { DateTime, Effect, Layer, Option } from "effect"
import { IdempotencyErrors, IdempotencyKeys, type IdempotencyRecord } from "@payrail/core"
import { MemoryState, removeEntry, setEntry, undoAll } from "./MemoryState.js"

type Scope = IdempotencyRecord.KeyScope

/** A claimed key: its fingerprint, when it was claimed, and its response once the request completed. */
interface Entry {
  readonly platformId: Scope["platformId"]
  readonly key: Scope["key"]
  readonly fingerprint: IdempotencyRecord.Fingerprint
  readonly createdAt: DateTime.Utc
  readonly response: Option.Option<IdempotencyRecord.StoredResponse>
}

type Outcome = IdempotencyKeys.Claim | "in-progress" | "reused"

const settle = (
  outcome: Outcome
): Effect.Effect<
  IdempotencyKeys.Claim,
  IdempotencyErrors.IdempotencyKeyInProgress | IdempotencyErrors.IdempotencyKeyReused
> =>
  outcome === "in-progress"
    ? Effect.fail(IdempotencyErrors.IdempotencyKeyInProgress.of())
    : outcome === "reused"
      ? Effect.fail(IdempotencyErrors.IdempotencyKeyReused.of())
      : Effect.succeed(outcome)

// NUL never occurs in a platform id, so the pair maps to one string and back.
const entryKey = (scope: Scope) => `${scope.platformId}\u0000${scope.key}`

/**
 * `IdempotencyKeys` in memory. Every write goes through `MemoryState.write`, so a claim and the response stored in
 * a unit of work are undone with it. Units of work run one at a time here, so a second request with a key waits
 * for the first's unit of work and then finds it completed (or free again, when it rolled back).
 */
export const layer = Layer.effect(
  IdempotencyKeys.IdempotencyKeys,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const entries = state.table<Entry>("idempotency_keys")
    return IdempotencyKeys.IdempotencyKeys.of({
      claim: (scope, fingerprint) =>
        Effect.flatMap(DateTime.now, (now) =>
          state.write((): readonly [Outcome, () => void] => {
            const found = entries.get(entryKey(scope))
            if (found === undefined) {
              const entry: Entry = { ...scope, fingerprint, createdAt: now, response: Option.none() }
              return [{ _tag: "Claimed" }, setEntry(entries, entryKey(scope), entry)]
            }
            if (Option.isNone(found.response)) return ["in-progress", () => {}]
            if (found.fingerprint !== fingerprint) return ["reused", () => {}]
            return [{ _tag: "Completed", response: found.response.value }, () => {}]
          })
        ).pipe(Effect.flatMap(settle)),
      complete: (scope, response) =>
        state.write(() => {
          const found = entries.get(entryKey(scope))
          if (found === undefined) return [undefined, () => {}]
          return [undefined, setEntry(entries, entryKey(scope), { ...found, response: Option.some(response) })]
        }),
      find: (scope) =>
        Effect.sync(() =>
          Option.fromNullable(entries.get(entryKey(scope))).pipe(
            Option.flatMap((entry) =>
              Option.map(entry.response, (response) => ({
                platformId: entry.platformId,
                key: entry.key,
                fingerprint: entry.fingerprint,
                response,
                createdAt: entry.createdAt
              }))
            )
          )
        ),
      purgeOlderThan: (cutoff) =>
        state.write(() => {
          const old = Array.from(entries).filter(([, entry]) => DateTime.lessThan(entry.createdAt, cutoff))
          return [old.length, undoAll(old.map(([key]) => removeEntry(entries, key)))]
        })
    })
  })
)
