import type { Platform } from "@payrail/core"
import type { Context } from "effect"
import type { MemoryState } from "./MemoryState.js"

/**
 * The platforms of `state`, by id: the table `PlatformRepo` writes, and the token repository and the jobs (for a
 * platform's clock offset) read.
 */
export const platformsOf = (state: Context.Tag.Service<MemoryState>): Map<string, Platform.Platform> =>
  state.table<Platform.Platform>("platforms")
