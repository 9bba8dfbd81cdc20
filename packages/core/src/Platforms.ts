import { Clock, Context, DateTime, Effect, Layer, Option, type Redacted } from "effect"
import { ApiToken, ApiTokenId, type Permission } from "./ApiToken.js"
import * as ApiTokenSecret from "./ApiTokenSecret.js"
import { ApiTokenRepo } from "./ApiTokenRepo.js"
import { PlatformNotFound, type StoreFailure } from "./Errors.js"
import { Ids } from "./Ids.js"
import { type Environment, Platform, PlatformConfig, PlatformId, SupportedCurrency } from "./Platform.js"
import { PlatformRepo } from "./PlatformRepo.js"
import * as ResourceId from "./ResourceId.js"
import { Store } from "./Store.js"
import * as SystemAccounts from "./SystemAccounts.js"
import { InternalAccounts } from "./InternalAccounts.js"
import * as Ledger from "./Ledger.js"

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
    }) => Effect.Effect<Platform, StoreFailure>
    readonly issueToken: (input: {
      readonly platformId: PlatformId
      readonly name: string
      readonly permissions: ReadonlyArray<Permission>
    }) => Effect.Effect<IssuedToken, PlatformNotFound | StoreFailure>
    readonly list: Effect.Effect<ReadonlyArray<Platform>, StoreFailure>
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
    const store = yield* Store
    const ids = yield* Ids
    const accounts = yield* InternalAccounts
    const ledger = yield* Ledger.Ledger
    const now = Effect.map(Clock.currentTimeMillis, (millis) => DateTime.unsafeMake(millis))
    return {
      create: ({ config, environment, name }) =>
        Effect.gen(function* () {
          const createdAt = yield* now
          const id = PlatformId.make(ResourceId.format("Platform", yield* ids.uuid))
          const platform = new Platform({ id, name, environment, config: config ?? defaultConfig, createdAt, updatedAt: createdAt })
          const currencies = platform.config.supportedCurrencies.map((currency) => currency.currencyCode)
          // The platform, its system accounts (rail clearing, fees, FX per currency) and its own internal accounts
          // exist together or not at all.
          yield* store.transaction(
            Effect.gen(function* () {
              yield* platforms.insert(platform)
              yield* Effect.forEach(SystemAccounts.accountsFor(platform.id, currencies), (account) =>
                ledger.openAccount(account).pipe(Effect.catchTag("InvalidPosting", Effect.die))
              )
              yield* accounts.openForPlatform(platform)
            })
          )
          return platform
        }),
      issueToken: ({ name, permissions, platformId }) =>
        Effect.gen(function* () {
          const platform = yield* platforms.findById(platformId)
          if (Option.isNone(platform)) {
            return yield* Effect.fail(
              new PlatformNotFound({ code: "NOT_FOUND", reason: "Platform not found", details: { platformId } })
            )
          }
          const credentials = yield* ApiTokenSecret.issue(platform.value.environment).pipe(Effect.provideService(Ids, ids))
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
      list: platforms.list
    }
  })
)
