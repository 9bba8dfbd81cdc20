import { type Context, Effect, Layer, Option } from "effect"
import { type Platform, PlatformRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

/** The platforms of `state`, by id: the table `PlatformRepo` writes and the token repository joins. */
export const platformsOf = (state: Context.Tag.Service<MemoryState>): Map<string, Platform.Platform> =>
  state.table<Platform.Platform>("platforms")

/** `PlatformRepo` in memory. */
export const layer: Layer.Layer<PlatformRepo.PlatformRepo, never, MemoryState> = Layer.effect(
  PlatformRepo.PlatformRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const platforms = platformsOf(state)
    return {
      insert: (platform) => state.write(() => [undefined, setEntry(platforms, platform.id, platform)]),
      findById: (id) => Effect.sync(() => Option.fromNullable(platforms.get(id))),
      list: Effect.sync(() => Array.from(platforms.values()))
    }
  })
)
