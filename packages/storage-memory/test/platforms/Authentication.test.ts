import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import { ApiTokenRepo, Authentication, Domain, Ids, PlatformRepo, Platforms } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layer)
)

describe("Authentication", () => {
  it.effect("authenticates a token's secret and rejects anything else with the same UNAUTHORIZED", () =>
    Effect.gen(function* () {
      const platforms = yield* Platforms.Platforms
      const platform = yield* platforms.create({ name: "Auth", environment: "SANDBOX" })
      const issued = yield* platforms.issueToken({ platformId: platform.id, name: "t", permissions: ["VIEW"] })
      const authentication = yield* Authentication.Authentication
      const caller = yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      expect(caller.platform.id).toBe(platform.id)
      expect(caller.token.permissions).toEqual(["VIEW"])
      const failures = yield* Effect.all(
        [
          authentication.authenticate(issued.token.clientId, Redacted.make("sk_sandbox_wrong")),
          authentication.authenticate("pk_unknown", issued.clientSecret),
          authentication.authenticate("", Redacted.make(""))
        ].map(Effect.either)
      )
      for (const failure of failures) {
        expect(Either.isLeft(failure) && failure.left).toMatchObject({
          code: "UNAUTHORIZED",
          reason: "Invalid API credentials"
        })
      }
    }).pipe(Effect.provide(services))
  )

  it.effect("reads the token and its platform with one repository call, and no separate platform lookup", () =>
    Effect.gen(function* () {
      const platform = yield* (yield* Platforms.Platforms).create({ name: "One lookup", environment: "SANDBOX" })
      const issued = yield* (yield* Platforms.Platforms).issueToken({
        platformId: platform.id,
        name: "t",
        permissions: ["VIEW"]
      })
      const tokens = yield* ApiTokenRepo.ApiTokenRepo
      const lookups: Array<string> = []
      // Only the combined lookup answers: a separate token or platform lookup would end the test.
      const counted = ApiTokenRepo.ApiTokenRepo.of({
        ...tokens,
        findByClientId: () => Effect.dieMessage("findByClientId"),
        findWithPlatform: (clientId) =>
          Effect.zipRight(
            Effect.sync(() => lookups.push(clientId)),
            tokens.findWithPlatform(clientId)
          )
      })
      const noPlatformLookups = PlatformRepo.PlatformRepo.of({
        insert: () => Effect.dieMessage("insert"),
        findById: () => Effect.dieMessage("findById"),
        list: Effect.dieMessage("list"),
        updateConfig: () => Effect.dieMessage("updateConfig"),
        advanceClock: () => Effect.dieMessage("advanceClock")
      })
      const authentication = yield* Authentication.Authentication.pipe(
        Effect.provide(
          Authentication.layer.pipe(
            Layer.provide(Layer.succeed(ApiTokenRepo.ApiTokenRepo, counted)),
            Layer.provide(Layer.succeed(PlatformRepo.PlatformRepo, noPlatformLookups))
          )
        )
      )
      const caller = yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      expect(caller).toEqual({ platform, token: issued.token })
      expect(lookups).toEqual([issued.token.clientId])
      expect(yield* tokens.findWithPlatform(issued.token.clientId)).toEqual(
        Option.some({ platform, token: issued.token })
      )
    }).pipe(Effect.provide(services))
  )
})
