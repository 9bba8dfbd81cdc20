import { Context, DateTime, Effect, Either, Layer, Option } from "effect"
import { type InvalidInput, StoreFailure, UnitOfWork } from "../kernel/index.js"
import { Platform, type PlatformId } from "./Platform.js"
import * as PlatformConfigUpdate from "./PlatformConfigUpdate.js"
import { PlatformNotFound } from "./PlatformErrors.js"
import { PlatformRepo } from "./PlatformRepo.js"
import { CredentialChanges } from "./CredentialChanges.js"
import { awaitSeen } from "./CredentialChangeSeen.js"
import { WebhookEndpointConfigured } from "./WebhookEndpointConfigured.js"

/** How many times an update is merged again after losing a race to a concurrent one before giving up. */
export const maxAttempts = 100

/**
 * A platform's own settings, as the platform API reads and changes them (`GET`/`PATCH /config`). Operators use
 * `Platforms`.
 */
export class PlatformSettings extends Context.Tag("@payrail/core/PlatformSettings")<
  PlatformSettings,
  {
    /** The platform as stored now (not as a credential cache may hold it). */
    readonly get: (platformId: PlatformId) => Effect.Effect<Platform, PlatformNotFound | StoreFailure.StoreFailure>
    /**
     * Applies a `PATCH /config` request and answers the platform after it. Concurrent updates of different fields
     * all apply: each merges into the stored configuration and writes only if nothing changed meanwhile, else
     * merges again. Every other process sees the new configuration on its next request. Setting or changing
     * `webhookEndpoint` runs `WebhookEndpointConfigured` in the change's unit of work.
     */
    readonly update: (
      platformId: PlatformId,
      request: PlatformConfigUpdate.UpdatePlatformConfigRequest
    ) => Effect.Effect<Platform, PlatformNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure>
  }
>() {}

export const layer = Layer.effect(
  PlatformSettings,
  Effect.gen(function* () {
    const platforms = yield* PlatformRepo
    const changes = yield* CredentialChanges
    const store = yield* UnitOfWork.UnitOfWork
    const endpointConfigured = yield* WebhookEndpointConfigured
    const get = (platformId: PlatformId) =>
      Effect.flatMap(platforms.findById(platformId), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(PlatformNotFound.of(platformId)),
          onSome: Effect.succeed
        })
      )
    const attempt = (platformId: PlatformId, request: PlatformConfigUpdate.UpdatePlatformConfigRequest) =>
      Effect.gen(function* () {
        const current = yield* get(platformId)
        const config = PlatformConfigUpdate.apply(current, request)
        if (Either.isLeft(config)) return yield* Effect.fail(config.left)
        const next = new Platform({
          ...current,
          config: config.right,
          updatedAt: PlatformConfigUpdate.nextUpdatedAt(current.updatedAt, yield* DateTime.now)
        })
        const endpoint = next.config.webhookEndpoint
        const write = Effect.flatMap(platforms.updateConfig(next, current.updatedAt), (done) =>
          done && endpoint !== undefined && endpoint !== current.config.webhookEndpoint
            ? Effect.as(endpointConfigured.configured(next, endpoint), done)
            : Effect.succeed(done)
        )
        // Waited for after the commit: the change is signalled when it commits.
        const written = yield* awaitSeen(store.transaction(write), (done) => done).pipe(
          Effect.provideService(CredentialChanges, changes)
        )
        return written ? Option.some(next) : Option.none<Platform>()
      })
    return {
      get: (platformId) => Effect.withSpan(get(platformId), "PlatformSettings.get"),
      update: Effect.fn("PlatformSettings.update")(function* (platformId, request) {
        for (let tries = 0; tries < maxAttempts; tries++) {
          const written = yield* attempt(platformId, request)
          if (Option.isSome(written)) return written.value
        }
        return yield* StoreFailure.StoreFailure.of("platforms.updateConfig: too many concurrent changes")
      })
    }
  })
)
