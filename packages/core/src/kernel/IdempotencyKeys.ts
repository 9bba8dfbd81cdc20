import { Context, type DateTime, type Effect, type Option } from "effect"
import type { IdempotencyKeyInProgress, IdempotencyKeyReused } from "./IdempotencyErrors.js"
import type { Fingerprint, IdempotencyRecord, KeyScope, StoredResponse } from "./IdempotencyRecord.js"
import type { StoreFailure } from "./StoreFailure.js"

/** What `claim` found: the key is now this unit of work's, or a completed request's response to replay. */
export type Claim = { readonly _tag: "Claimed" } | { readonly _tag: "Completed"; readonly response: StoredResponse }

/**
 * The stored `Idempotency-Key`s of every platform: the race-safe primitives that make a retried request run once.
 * `claim` and `complete` run inside one `UnitOfWork.transaction` with the request's own writes, so the effect of
 * a request and its stored response commit together or not at all; a unit of work that rolls back frees its claim.
 * Records are kept until `purgeOlderThan` removes them (the API promises at least 24 hours).
 */
export class IdempotencyKeys extends Context.Tag("@payrail/core/IdempotencyKeys")<
  IdempotencyKeys,
  {
    /**
     * Claims `scope` for a request with `fingerprint`, inside the caller's unit of work. Of concurrent claims of one
     * key exactly one wins. A claim held by another unit of work still running fails at once with
     * `IdempotencyKeyInProgress` on PostgreSQL (no waiting); where units of work run one at a time (memory, PGlite)
     * a second request simply runs after the first and finds it completed. A completed record with the same
     * fingerprint answers `Completed` with its response; with another fingerprint, `IdempotencyKeyReused`.
     */
    readonly claim: (
      scope: KeyScope,
      fingerprint: Fingerprint
    ) => Effect.Effect<Claim, IdempotencyKeyInProgress | IdempotencyKeyReused | StoreFailure>
    /** Stores the response of the request that claimed `scope` in this unit of work; it commits with the unit. */
    readonly complete: (scope: KeyScope, response: StoredResponse) => Effect.Effect<void, StoreFailure>
    /** The completed record of `scope`, if any (an uncommitted claim is invisible). */
    readonly find: (scope: KeyScope) => Effect.Effect<Option.Option<IdempotencyRecord>, StoreFailure>
    /** Deletes every record claimed before `cutoff`, of every platform; answers how many it deleted. */
    readonly purgeOlderThan: (cutoff: DateTime.Utc) => Effect.Effect<number, StoreFailure>
  }
>() {}
