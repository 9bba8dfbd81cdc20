import { Context, type Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "./Platform.js"

/**
 * Opens what a new platform gets besides its own record: its system ledger accounts (rail clearing, fees, FX per
 * currency) and its own internal accounts. `Platforms.create` calls it inside the platform's unit of work. The
 * accounts context implements it (`AccountProvisioning.platformLayer`), so platforms need not depend on accounts or
 * the ledger.
 */
export class PlatformProvisioning extends Context.Tag("@payrail/core/PlatformProvisioning")<
  PlatformProvisioning,
  { readonly provision: (platform: Platform) => Effect.Effect<void, StoreFailure.StoreFailure> }
>() {}
