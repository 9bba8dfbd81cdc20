import { Effect, Layer } from "effect"
import { WalletSecretRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

// NUL never occurs in a platform id, so the pair maps to one string and back.
const keyOf = (platformId: string, accountId: string) => `${platformId}\u0000${accountId}`

/**
 * `WalletSecretRepo` in memory: one sealed secret per (platform, wallet), kept by the first `keep` (checked and
 * stored in one atomic step, so concurrent first calls all answer the same secret). A unit of work that fails
 * undoes the secret it kept.
 */
export const layer: Layer.Layer<WalletSecretRepo.WalletSecretRepo, never, MemoryState> = Layer.effect(
  WalletSecretRepo.WalletSecretRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<string>("walletSecrets")
    return {
      keep: (platformId, accountId, sealedSecret) =>
        state.write((): readonly [string, () => void] => {
          const key = keyOf(platformId, accountId)
          const stored = rows.get(key)
          return stored === undefined ? [sealedSecret, setEntry(rows, key, sealedSecret)] : [stored, () => {}]
        })
    }
  })
)
