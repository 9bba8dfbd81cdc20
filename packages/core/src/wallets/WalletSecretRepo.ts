import { Context, type DateTime, type Effect } from "effect"
import type { InternalAccount } from "../accounts/index.js"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/**
 * Storage of each embedded wallet's secret, only ever sealed under the service's master key (`WalletKeys`),
 * scoped to one platform. A wallet has one secret for life: `keep` stores the given one if the wallet has none and
 * returns the stored one either way, so N concurrent first exports agree on one secret.
 */
export class WalletSecretRepo extends Context.Tag("@payrail/core/WalletSecretRepo")<
  WalletSecretRepo,
  {
    readonly keep: (
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId,
      sealedSecret: string,
      at: DateTime.Utc
    ) => Effect.Effect<string, StoreFailure.StoreFailure>
  }
>() {}
