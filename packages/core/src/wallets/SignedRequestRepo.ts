import { Context, type DateTime, type Effect, type Option } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { SignedRequest, SignedRequestId } from "./SignedRequest.js"

/**
 * Storage of signed-retry challenges, scoped to one platform: a request of another platform is never found or
 * consumed. `consume` is the single-use guard: it sets `consumedAt` only on a request not consumed yet, so of N
 * concurrent consumers of one request exactly one gets `true`, and inside a unit of work that rolls back the
 * request stays unconsumed. Expired requests are kept until purged.
 */
export class SignedRequestRepo extends Context.Tag("@payrail/core/SignedRequestRepo")<
  SignedRequestRepo,
  {
    /** Inserts a new challenge; an id inserted twice fails with `StoreFailure` and changes nothing. */
    readonly insert: (
      platformId: Platform.PlatformId,
      request: SignedRequest
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: SignedRequestId
    ) => Effect.Effect<Option.Option<SignedRequest>, StoreFailure.StoreFailure>
    /** Marks the request consumed at `at` if no one has; `true` when this call consumed it. */
    readonly consume: (
      platformId: Platform.PlatformId,
      id: SignedRequestId,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Deletes requests that expired before `before`, at most `limit` of them; the number deleted. */
    readonly purgeExpired: (before: DateTime.Utc, limit: number) => Effect.Effect<number, StoreFailure.StoreFailure>
  }
>() {}
