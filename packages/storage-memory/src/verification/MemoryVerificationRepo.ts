import { Effect, Layer, Option } from "effect"
import { Errors, Page, type Verification, VerificationRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly verification: Verification.Verification
}

const keyOf = (verification: Verification.Verification): Page.Cursor => ({
  createdAt: verification.createdAt,
  id: verification.id
})

const matches = (verification: Verification.Verification, filter: VerificationRepo.VerificationFilter): boolean =>
  (filter.customerId === undefined || verification.customerId === filter.customerId) &&
  (filter.verificationStatus === undefined || verification.verificationStatus === filter.verificationStatus)

/**
 * `VerificationRepo` in memory, with the SQL adapter's rules: an id is inserted once (a second insert fails with
 * `StoreFailure` and changes nothing; a failed unit of work undoes an insert), every read is scoped to the platform,
 * and lists are newest-first keyset pages by `(createdAt, id)` with the total matching count.
 */
export const layer: Layer.Layer<VerificationRepo.VerificationRepo, never, MemoryState> = Layer.effect(
  VerificationRepo.VerificationRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("verifications")
    return {
      insert: (platformId, verification) =>
        Effect.flatten(
          state.write<Effect.Effect<void, Errors.StoreFailure>>(() =>
            rows.has(verification.id)
              ? [Effect.fail(Errors.StoreFailure.of("verifications.insert", "duplicate id")), () => {}]
              : [Effect.void, setEntry(rows, verification.id, { platformId, verification })]
          )
        ),
      findById: (platformId, id) =>
        Effect.sync(() =>
          Option.fromNullable(rows.get(id)).pipe(
            Option.filter((row) => row.platformId === platformId),
            Option.map((row) => row.verification)
          )
        ),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const matching = Array.from(rows.values())
            .filter((row) => row.platformId === platformId && matches(row.verification, filter))
            .map((row) => row.verification)
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((verification) => Page.isAfter(keyOf(verification), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        })
    }
  })
)
