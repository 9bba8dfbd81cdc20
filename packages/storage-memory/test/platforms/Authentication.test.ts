import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Redacted } from "effect"
import { Authentication, Domain, Ids, Platforms } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
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
        expect(Either.isLeft(failure) && failure.left).toMatchObject({ code: "UNAUTHORIZED", reason: "Invalid API credentials" })
      }
    }).pipe(Effect.provide(services)))
})
