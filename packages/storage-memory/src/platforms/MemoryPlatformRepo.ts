import { Effect, Layer, Option } from "effect"
import { type Platform, PlatformRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

/** `PlatformRepo` in memory. */
export const layer = Layer.effect(
  PlatformRepo.PlatformRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const platforms = state.table<Platform.Platform>("platforms")
    return {
      insert: (platform) => state.write(() => [undefined, setEntry(platforms, platform.id, platform)]),
      findById: (id) => Effect.sync(() => Option.fromNullable(platforms.get(id))),
      list: Effect.sync(() => Array.from(platforms.values()))
    }
  })
)
