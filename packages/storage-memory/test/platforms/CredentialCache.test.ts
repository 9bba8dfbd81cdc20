import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, TestClock } from "effect"
import { ApiTokenRepo, Authentication, CredentialChanges, Domain, Ids, Platforms } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layer)
)

// A platform and a token on it, and an `Authentication` whose storage lookups are counted.
const setUp = (changes?: Layer.Layer<CredentialChanges.CredentialChanges>) =>
  Effect.gen(function* () {
    const platforms = yield* Platforms.Platforms
    const platform = yield* platforms.create({ name: "Cache", environment: "SANDBOX" })
    const issued = yield* platforms.issueToken({ platformId: platform.id, name: "t", permissions: ["VIEW"] })
    const tokens = yield* ApiTokenRepo.ApiTokenRepo
    const lookups: Array<string> = []
    const counted = ApiTokenRepo.ApiTokenRepo.of({
      ...tokens,
      findWithPlatform: (clientId) =>
        Effect.zipRight(
          Effect.sync(() => lookups.push(clientId)),
          tokens.findWithPlatform(clientId)
        )
    })
    const layer = Authentication.layer.pipe(Layer.provide(Layer.succeed(ApiTokenRepo.ApiTokenRepo, counted)))
    const authentication = yield* Authentication.Authentication.pipe(
      Effect.provide(changes === undefined ? layer : layer.pipe(Layer.provide(changes)))
    )
    return { platforms, issued, authentication, lookups }
  })

describe("Authentication's credential cache", () => {
  it.effect("answers the same credentials again without reading storage", () =>
    Effect.gen(function* () {
      const { authentication, issued, lookups } = yield* setUp()
      const first = yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      const second = yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      expect(second).toEqual(first)
      expect(lookups).toEqual([issued.token.clientId])
    }).pipe(Effect.provide(services))
  )

  it.effect("never accepts a wrong secret for a client id it has cached", () =>
    Effect.gen(function* () {
      const { authentication, issued } = yield* setUp()
      yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      const secret = Redacted.value(issued.clientSecret)
      for (const wrong of [`${secret.slice(0, -1)}x`, secret.slice(0, -1), `${secret}x`, ""]) {
        const failure = yield* Effect.flip(authentication.authenticate(issued.token.clientId, Redacted.make(wrong)))
        expect(failure).toMatchObject({ code: "UNAUTHORIZED" })
      }
      expect(yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)).toMatchObject({
        token: issued.token
      })
    }).pipe(Effect.provide(services))
  )

  it.effect("refuses a revoked token on the very next request", () =>
    Effect.gen(function* () {
      const { authentication, issued, platforms } = yield* setUp()
      yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      expect(yield* platforms.revokeToken(issued.token.clientId)).toEqual(issued.token)
      const failure = yield* Effect.flip(authentication.authenticate(issued.token.clientId, issued.clientSecret))
      expect(failure).toMatchObject({ code: "UNAUTHORIZED" })
      expect(yield* Effect.flip(platforms.revokeToken(issued.token.clientId))).toMatchObject({
        _tag: "ApiTokenNotFound",
        code: "NOT_FOUND"
      })
    }).pipe(Effect.provide(services))
  )

  it.effect("reads storage again once an entry is five seconds old", () =>
    Effect.gen(function* () {
      const { authentication, issued, lookups } = yield* setUp()
      yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      yield* TestClock.adjust("4999 millis")
      yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      expect(lookups).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      expect(lookups).toHaveLength(2)
    }).pipe(Effect.provide(services))
  )

  it.effect("caches nothing while the store cannot signal changes", () =>
    Effect.gen(function* () {
      const { authentication, issued, lookups } = yield* setUp(CredentialChanges.unobservable)
      yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      yield* authentication.authenticate(issued.token.clientId, issued.clientSecret)
      expect(lookups).toHaveLength(2)
    }).pipe(Effect.provide(services))
  )
})
