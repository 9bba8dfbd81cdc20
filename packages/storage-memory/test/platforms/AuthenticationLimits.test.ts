import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, TestClock } from "effect"
import { Authentication, AuthenticationLimits, Domain, Ids, Platforms, RateLimit, RateLimiter } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const perMinute = (name: string, count: number) => Option.some(RateLimit.perMinute(name, count))

// The store's limiter, counting the events it is asked about.
const counted = { events: 0 }
const countingLimiter = Layer.effect(
  RateLimiter.RateLimiter,
  Effect.map(RateLimiter.RateLimiter, (limiter) => ({
    consume: (key: string, limit: RateLimit.RateLimit) => {
      counted.events++
      return limiter.consume(key, limit)
    }
  }))
)

const services = (limits: AuthenticationLimits.Limits) =>
  Domain.layer.pipe(
    Layer.provide(countingLimiter),
    Layer.provideMerge(StorageMemory.layer),
    Layer.provide(Sandbox.layer),
    Layer.provide(WalletAuth.layerEphemeral),
    Layer.provide(Ids.layer),
    Layer.provide(Layer.succeed(AuthenticationLimits.AuthenticationLimits, limits))
  )

const issue = Effect.gen(function* () {
  const platforms = yield* Platforms.Platforms
  const platform = yield* platforms.create({ name: "Limits", environment: "SANDBOX" })
  return yield* platforms.issueToken({ platformId: platform.id, name: "t", permissions: ["VIEW"] })
})

const wrong = Redacted.make("sk_sandbox_wrong")

const outcome = (clientId: string, secret: Redacted.Redacted<string>, address?: string) =>
  Effect.flatMap(Authentication.Authentication, (authentication) =>
    authentication.authenticate(clientId, secret, address)
  ).pipe(
    Effect.match({
      onSuccess: () => "ok" as const,
      onFailure: (failure) =>
        failure._tag === "RateLimited"
          ? `429 ${failure.details.limit} ${failure.details.retryAfterSeconds}s`
          : failure._tag === "Unauthenticated"
            ? "401"
            : failure._tag
    })
  )

describe("Authentication limits", () => {
  it.effect(
    "refuses a client id after its failures, the right secret included, costs no store call meanwhile, and lets it in when the limit lifts",
    () =>
      Effect.gen(function* () {
        const issued = yield* issue
        const { clientId } = issued.token
        for (let attempt = 0; attempt < 3; attempt++) expect(yield* outcome(clientId, wrong)).toBe("401")
        expect(yield* outcome(clientId, wrong)).toBe("429 failed_authentication_per_client_id 20s")
        counted.events = 0
        expect(yield* outcome(clientId, issued.clientSecret)).toBe("429 failed_authentication_per_client_id 20s")
        expect(yield* outcome(clientId, wrong)).toBe("429 failed_authentication_per_client_id 20s")
        expect(counted.events).toBe(0)
        yield* TestClock.adjust("19 seconds")
        expect(yield* outcome(clientId, issued.clientSecret)).toBe("429 failed_authentication_per_client_id 1s")
        yield* TestClock.adjust("1 second")
        expect(yield* outcome(clientId, issued.clientSecret)).toBe("ok")
        // Another client id is untouched by this one's lock.
        const other = yield* issue
        expect(yield* outcome(other.token.clientId, other.clientSecret)).toBe("ok")
      }).pipe(
        Effect.provide(
          services({
            ...AuthenticationLimits.none,
            failuresPerClientId: perMinute(AuthenticationLimits.names.failuresPerClientId, 3)
          })
        )
      )
  )

  it.effect("counts failures per source address across client ids, and a success does not reset the count", () =>
    Effect.gen(function* () {
      const issued = yield* issue
      const address = "198.51.100.7"
      expect(yield* outcome("pk_guess_1", wrong, address)).toBe("401")
      expect(yield* outcome("pk_guess_2", wrong, address)).toBe("401")
      expect(yield* outcome(issued.token.clientId, issued.clientSecret, address)).toBe("ok")
      expect(yield* outcome("pk_guess_3", wrong, address)).toBe("401")
      expect(yield* outcome("pk_guess_4", wrong, address)).toBe("429 failed_authentication_per_source_address 20s")
      expect(yield* outcome(issued.token.clientId, issued.clientSecret, address)).toBe(
        "429 failed_authentication_per_source_address 20s"
      )
      expect(yield* outcome(issued.token.clientId, issued.clientSecret, "198.51.100.8")).toBe("ok")
      // Client ids no token can have still count against the address.
      expect(yield* outcome("", wrong, "198.51.100.9")).toBe("401")
      expect(yield* outcome("pk_\u0000", wrong, "198.51.100.9")).toBe("401")
      expect(yield* outcome("x".repeat(500), wrong, "198.51.100.9")).toBe("401")
      expect(yield* outcome("", wrong, "198.51.100.9")).toBe("429 failed_authentication_per_source_address 20s")
    }).pipe(
      Effect.provide(
        services({
          ...AuthenticationLimits.none,
          failuresPerSourceAddress: perMinute(AuthenticationLimits.names.failuresPerSourceAddress, 3)
        })
      )
    )
  )

  it.effect("limits requests per token in a burst refilled over time, each token apart", () =>
    Effect.gen(function* () {
      const issued = yield* issue
      const other = yield* issue
      const { clientId } = issued.token
      for (let request = 0; request < 5; request++) expect(yield* outcome(clientId, issued.clientSecret)).toBe("ok")
      expect(yield* outcome(clientId, issued.clientSecret)).toBe("429 requests_per_api_token 1s")
      expect(yield* outcome(other.token.clientId, other.clientSecret)).toBe("ok")
      yield* TestClock.adjust("500 millis")
      expect(yield* outcome(clientId, issued.clientSecret)).toBe("ok")
      expect(yield* outcome(clientId, issued.clientSecret)).toBe("429 requests_per_api_token 1s")
    }).pipe(
      Effect.provide(
        services({
          ...AuthenticationLimits.none,
          requestsPerToken: Option.some(RateLimit.tokenBucket(AuthenticationLimits.names.requestsPerToken, 5, 2))
        })
      )
    )
  )

  it.effect("enforces nothing with every limit off, and counts nothing in the store", () =>
    Effect.gen(function* () {
      const issued = yield* issue
      counted.events = 0
      for (let attempt = 0; attempt < 50; attempt++) {
        expect(yield* outcome(issued.token.clientId, wrong, "198.51.100.10")).toBe("401")
      }
      expect(yield* outcome(issued.token.clientId, issued.clientSecret, "198.51.100.10")).toBe("ok")
      expect(counted.events).toBe(0)
    }).pipe(Effect.provide(services(AuthenticationLimits.none)))
  )

  it("makes the documented defaults: 20 a minute per client id, 100 per address, bursts of 200 at 100 a second", () => {
    expect(AuthenticationLimits.defaults).toEqual({
      failuresPerClientId: Option.some({
        name: "failed_authentication_per_client_id",
        burst: 20,
        intervalMillis: 3000
      }),
      failuresPerSourceAddress: Option.some({
        name: "failed_authentication_per_source_address",
        burst: 100,
        intervalMillis: 600
      }),
      requestsPerToken: Option.some({ name: "requests_per_api_token", burst: 200, intervalMillis: 10 })
    })
    expect(AuthenticationLimits.make({ ...figures, failuresPerClientId: 0, requestsPerSecond: 0 })).toMatchObject({
      failuresPerClientId: Option.none(),
      requestsPerToken: Option.none()
    })
  })
})

const figures = {
  failuresPerClientId: 20,
  failuresPerSourceAddress: 100,
  failureWindowSeconds: 60,
  requestsPerSecond: 100,
  requestBurst: 200
}
