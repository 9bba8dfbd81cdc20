import { Context, DateTime, Effect, Layer, Option, type Redacted } from "effect"
import { ApiToken, ApiTokenId, type Permission } from "./ApiToken.js"
import * as ApiTokenSecret from "./ApiTokenSecret.js"
import { ApiTokenRepo } from "./ApiTokenRepo.js"
import { ApiTokenNotFound, PlatformNotFound } from "./PlatformErrors.js"
import { type Environment, Platform, PlatformConfig, PlatformId, SupportedCurrency } from "./Platform.js"
import { PlatformRepo } from "./PlatformRepo.js"
import { Ids, ResourceId, UnitOfWork, type StoreFailure } from "../kernel/index.js"
import { PlatformProvisioning } from "./PlatformProvisioning.js"

/** A token just issued, with its secret in clear: show it to the owner once; it cannot be recovered later. */
export interface IssuedToken {
  readonly token: ApiToken
  readonly clientSecret: Redacted.Redacted<string>
}

/** Platform administration: used by operators (CLI, server bootstrap), not by the platform API. */
export class Platforms extends Context.Tag("@payrail/core/Platforms")<
  Platforms,
  {
    readonly create: (input: {
      readonly name: string
      readonly environment: Environment
      readonly config?: PlatformConfig
    }) => Effect.Effect<Platform, StoreFailure.StoreFailure>
    readonly issueToken: (input: {
      readonly platformId: PlatformId
      readonly name: string
      readonly permissions: ReadonlyArray<Permission>
    }) => Effect.Effect<IssuedToken, PlatformNotFound | StoreFailure.StoreFailure>
    /**
     * Revokes the token with this client id: it is deleted, and every process sharing the store refuses it from
     * the next request on (see `CredentialChanges`). Answers the revoked token.
     */
    readonly revokeToken: (clientId: string) => Effect.Effect<ApiToken, ApiTokenNotFound | StoreFailure.StoreFailure>
    readonly list: Effect.Effect<ReadonlyArray<Platform>, StoreFailure.StoreFailure>
  }
>() {}

/** The configuration a platform gets when none is given: USD and the platform stablecoin, US region. */
export const defaultConfig = new PlatformConfig({
  supportedCurrencies: [
    new SupportedCurrency({ currencyCode: "USD", minAmount: 1, maxAmount: 1_000_000_00 }),
    new SupportedCurrency({ currencyCode: "USDC", minAmount: 1, maxAmount: 1_000_000_000_000 })
  ],
  isRegulatedFinancialInstitution: false,
  skipPaperwork: false,
  region: "US" as PlatformConfig["region"],
  umaDomain: "sandbox.payrail.local"
})

export const layer = Layer.effect(
  Platforms,
  Effect.gen(function* () {
    const platforms = yield* PlatformRepo
    const tokens = yield* ApiTokenRepo
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const provisioning = yield* PlatformProvisioning
    const now = DateTime.now
    return {
      create: Effect.fn("Platforms.create")(function* ({ config, environment, name }) {
        const createdAt = yield* now
        const id = PlatformId.make(ResourceId.format("Platform", yield* ids.uuid))
        const platform = new Platform({
          id,
          name,
          environment,
          config: config ?? defaultConfig,
          createdAt,
          updatedAt: createdAt
        })
        // The platform and what provisioning opens for it exist together or not at all.
        yield* store.transaction(Effect.zipRight(platforms.insert(platform), provisioning.provision(platform)))
        return platform
      }),
      issueToken: Effect.fn("Platforms.issueToken")(function* ({ name, permissions, platformId }) {
        const platform = yield* platforms.findById(platformId)
        if (Option.isNone(platform)) return yield* PlatformNotFound.of(platformId)
        const credentials = yield* ApiTokenSecret.issue(platform.value.environment).pipe(
          Effect.provideService(Ids.Ids, ids)
        )
        const token = new ApiToken({
          id: ApiTokenId.make(ResourceId.format("ApiToken", yield* ids.uuid)),
          platformId,
          name,
          clientId: credentials.clientId,
          secretHash: credentials.secretHash,
          permissions: [...new Set(permissions)],
          createdAt: yield* now
        })
        yield* store.transaction(tokens.insert(token))
        return { token, clientSecret: credentials.clientSecret }
      }),
      revokeToken: Effect.fn("Platforms.revokeToken")(function* (clientId: string) {
        const revoked = yield* store.transaction(tokens.deleteByClientId(clientId))
        if (Option.isNone(revoked)) return yield* ApiTokenNotFound.of()
        return revoked.value
      }),
      list: Effect.withSpan(platforms.list, "Platforms.list")
    }
  })
)
