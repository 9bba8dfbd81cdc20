import { Context, type DateTime, type Effect, type Option } from "effect"
import type { StoredKycLink } from "./KycLink.js"
import type { StoreFailure } from "../kernel/index.js"

/**
 * Storage of hosted verification links, found by the hash of their secret (the secret in the page's URL is what
 * names the platform, so lookups are not platform-scoped; a hash names at most one link).
 */
export class KycLinkRepo extends Context.Tag("@payrail/core/KycLinkRepo")<
  KycLinkRepo,
  {
    /** Stores a new, unspent link. */
    readonly insert: (link: StoredKycLink) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findBySecretHash: (
      secretHash: string
    ) => Effect.Effect<Option.Option<StoredKycLink>, StoreFailure.StoreFailure>
    /**
     * Marks the link spent at `at` if it is unspent and has not expired at `at`, in one guarded step: of concurrent
     * spends of one link exactly one gets `true`. Joins the caller's unit of work, so a spend rolled back with the
     * submission it guards leaves the link usable.
     */
    readonly spend: (secretHash: string, at: DateTime.Utc) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
