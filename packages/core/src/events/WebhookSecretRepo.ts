import { Context, type DateTime, type Effect } from "effect"
import type { PlatformId, StoreFailure } from "../kernel/index.js"
import type { WebhookSecret } from "./WebhookSecret.js"

/**
 * Storage of webhook signing secrets, per platform.
 *
 * Concurrency: `rotate` is one atomic step (one statement on SQL adapters): a rotation applies whole or not at all.
 * Of concurrent rotations each leaves its new secret active; one may not see the other's new secret yet, so both can
 * stay current until the next rotation (every secret issued was answered to a caller, so none is unknown).
 */
export class WebhookSecretRepo extends Context.Tag("@payrail/core/WebhookSecretRepo")<
  WebhookSecretRepo,
  {
    /**
     * Stores `next` as the platform's current secret. Every other secret of the platform that would outlive
     * `previousExpiresAt` now expires then (an already earlier expiry is kept), and secrets expired before
     * `next.createdAt` are removed.
     */
    readonly rotate: (
      next: WebhookSecret,
      previousExpiresAt: DateTime.Utc
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** The platform's secrets still active at `now` (no expiry, or a later one), newest first. */
    readonly active: (
      platformId: PlatformId.PlatformId,
      now: DateTime.Utc
    ) => Effect.Effect<ReadonlyArray<WebhookSecret>, StoreFailure.StoreFailure>
  }
>() {}
