import { DateTime, Effect, Layer, Option } from "effect"
import { Platform, PlatformRepo } from "@payrail/core"
import { platformsOf } from "../kernel/MemoryPlatformTable.js"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"
import { CredentialVersion } from "./MemoryCredentialChanges.js"

/**
 * `PlatformRepo` in memory. `updateConfig` and `advanceClock` change the platform in one synchronous step and bump
 * the credential version in it, so cached credentials never outlive the configuration or clock they hold.
 */
export const layer: Layer.Layer<PlatformRepo.PlatformRepo, never, MemoryState | CredentialVersion> = Layer.effect(
  PlatformRepo.PlatformRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const platforms = platformsOf(state)
    const version = yield* CredentialVersion
    return {
      insert: (platform) => state.write(() => [undefined, setEntry(platforms, platform.id, platform)]),
      findById: (id) => Effect.sync(() => Option.fromNullable(platforms.get(id))),
      list: Effect.sync(() => Array.from(platforms.values())),
      updateConfig: (next, previousUpdatedAt) =>
        state.write(() => {
          const stored = platforms.get(next.id)
          if (stored === undefined || !DateTime.Equivalence(stored.updatedAt, previousUpdatedAt)) {
            return [false, () => {}]
          }
          version.bump()
          // The clock offset is not the caller's to set: keep the stored one.
          const kept = new Platform.Platform({ ...next, clockOffsetSeconds: stored.clockOffsetSeconds })
          return [true, setEntry(platforms, next.id, kept)]
        }),
      advanceClock: (id, bySeconds, maxOffsetSeconds) =>
        state.write(() => {
          const stored = platforms.get(id)
          const offset = (stored?.clockOffsetSeconds ?? 0) + bySeconds
          if (stored === undefined || offset > maxOffsetSeconds) return [Option.none(), () => {}]
          version.bump()
          const next = new Platform.Platform({ ...stored, clockOffsetSeconds: offset })
          return [Option.some(next), setEntry(platforms, id, next)]
        })
    }
  })
)
