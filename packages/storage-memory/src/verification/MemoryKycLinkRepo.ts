import { DateTime, Effect, Layer, Option } from "effect"
import { KycLinkRepo, type KycLink } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

/**
 * `KycLinkRepo` in memory, keyed by the secret's hash. `spend` checks and marks the link in one atomic step, so of
 * concurrent spends exactly one gets `true`. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<KycLinkRepo.KycLinkRepo, never, MemoryState> = Layer.effect(
  KycLinkRepo.KycLinkRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<KycLink.StoredKycLink>("kycLinks")
    return {
      insert: (link) => state.write(() => [undefined, setEntry(rows, link.secretHash, link)]),
      findBySecretHash: (secretHash) => Effect.sync(() => Option.fromNullable(rows.get(secretHash))),
      spend: (secretHash, at) =>
        state.write((): readonly [boolean, () => void] => {
          const link = rows.get(secretHash)
          if (link === undefined || link.spentAt !== undefined || DateTime.lessThanOrEqualTo(link.expiresAt, at)) {
            return [false, () => {}]
          }
          return [true, setEntry(rows, secretHash, { ...link, spentAt: at })]
        })
    }
  })
)
