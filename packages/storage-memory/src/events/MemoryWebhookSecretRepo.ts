import { DateTime, Effect, Layer } from "effect"
import { WebhookSecret, WebhookSecretRepo } from "@payrail/core"
import { MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"

type Secret = WebhookSecret.WebhookSecret

/**
 * `WebhookSecretRepo` in memory: each platform's secrets, newest first. `rotate` is one synchronous step, so
 * concurrent rotations apply one after the other.
 */
export const layer: Layer.Layer<WebhookSecretRepo.WebhookSecretRepo, never, MemoryState> = Layer.effect(
  WebhookSecretRepo.WebhookSecretRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const byPlatform = state.table<ReadonlyArray<Secret>>("webhookSecrets")
    return {
      rotate: (next, previousExpiresAt) =>
        state.write(() => {
          const kept = (byPlatform.get(next.platformId) ?? [])
            .filter((secret) => WebhookSecret.isActive(secret, next.createdAt))
            .map((secret) =>
              secret.expiresAt !== undefined && DateTime.lessThanOrEqualTo(secret.expiresAt, previousExpiresAt)
                ? secret
                : new WebhookSecret.WebhookSecret({ ...secret, expiresAt: previousExpiresAt })
            )
          return [undefined, undoAll([setEntry(byPlatform, next.platformId, [next, ...kept])])]
        }),
      active: (platformId, now) =>
        Effect.sync(() => (byPlatform.get(platformId) ?? []).filter((secret) => WebhookSecret.isActive(secret, now)))
    }
  })
)
