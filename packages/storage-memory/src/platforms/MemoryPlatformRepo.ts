import { type Context, DateTime, Effect, Layer, Option } from "effect"
import { type Platform, PlatformRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"
import { CredentialVersion } from "./MemoryCredentialChanges.js"

/** The platforms of `state`, by id: the table `PlatformRepo` writes and the token repository joins. */
export const platformsOf = (state: Context.Tag.Service<MemoryState>): Map<string, Platform.Platform> =>
  state.table<Platform.Platform>("platforms")

/**
 * `PlatformRepo` in memory. `updateConfig` compares and replaces in one synchronous step and bumps the credential
 * version in it, so cached credentials never outlive the configuration they hold.
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
          return [true, setEntry(platforms, next.id, next)]
        })
    }
  })
)
