import { Context, DateTime, Effect, Layer, type Redacted } from "effect"
import { Ids, type PlatformId, UnitOfWork, type StoreFailure } from "../kernel/index.js"
import { defaultOverlap, generate, WebhookSecret } from "./WebhookSecret.js"
import { WebhookSecretRepo } from "./WebhookSecretRepo.js"

/** How long a rotated-out secret keeps signing beside the new one (24 hours unless provided). */
export class WebhookSecretOverlap extends Context.Reference<WebhookSecretOverlap>()(
  "@payrail/core/WebhookSecretOverlap",
  { defaultValue: () => defaultOverlap }
) {}

/** A secret just issued, in clear: show it to the platform once; it cannot be read back later. */
export interface IssuedSecret {
  readonly secret: Redacted.Redacted<string>
  /** Until when the previous secrets keep signing beside it (now, when there were none). */
  readonly previousExpiresAt: DateTime.Utc
}

/** The platform's webhook signing secrets: issued with the platform, replaced by rotation. */
export class WebhookSecrets extends Context.Tag("@payrail/core/WebhookSecrets")<
  WebhookSecrets,
  {
    /**
     * Issues a new secret that signs from now on; the platform's previous secrets keep signing beside it until
     * `previousExpiresAt` (the overlap), then stop. Also how the first secret is issued.
     */
    readonly rotate: (platformId: PlatformId.PlatformId) => Effect.Effect<IssuedSecret, StoreFailure.StoreFailure>
  }
>() {}

export const layer = Layer.effect(
  WebhookSecrets,
  Effect.gen(function* () {
    const repo = yield* WebhookSecretRepo
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    // Read once, where the layer is built: the server provides it to the domain's layers, not to each request.
    const overlap = yield* WebhookSecretOverlap
    return {
      rotate: Effect.fn("WebhookSecrets.rotate")(function* (platformId: PlatformId.PlatformId) {
        const now = yield* DateTime.now
        const secret = yield* Effect.provideService(generate, Ids.Ids, ids)
        const previousExpiresAt = DateTime.addDuration(now, overlap)
        yield* store.transaction(
          repo.rotate(new WebhookSecret({ platformId, secret, createdAt: now }), previousExpiresAt)
        )
        return { secret, previousExpiresAt }
      })
    }
  })
)
