import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { type LivenessCheck, Platform } from "@payrail/core"
import { SandboxLivenessCheck } from "@payrail/sandbox"

const request = (environment: Platform.Environment, platformCustomerId: string): LivenessCheck.LivenessRequest => ({
  platformId: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
  environment,
  customerId: "Customer:1",
  platformCustomerId,
  resetId: "ScaReset:1",
  expiresAt: DateTime.unsafeMake("2030-01-01T00:00:00Z")
})

const outcomeOf = (check: LivenessCheck.LivenessCheck["Type"], environment: Platform.Environment, pcid: string) =>
  Effect.flatMap(check.open(request(environment, pcid)), (session) =>
    check.outcome({ platformId: request(environment, pcid).platformId, environment, sessionId: session.sessionId })
  )

describe("SandboxLivenessCheck", () => {
  it.effect("decides a sandbox platform's check by the platformCustomerId's magic ending", () =>
    Effect.gen(function* () {
      const check = SandboxLivenessCheck.make()
      expect(check.serves("SANDBOX")).toBe(true)
      expect(yield* outcomeOf(check, "SANDBOX", "crm-42")).toBe("PASSED")
      expect(yield* outcomeOf(check, "SANDBOX", "crm-42-liveness-fail")).toBe("FAILED")
      expect(yield* outcomeOf(check, "SANDBOX", "crm-42-liveness-review")).toBe("IN_REVIEW")
    })
  )

  it.effect("refuses production platforms unless a real provider is given, which then serves them", () =>
    Effect.gen(function* () {
      const alone = SandboxLivenessCheck.make()
      expect(alone.serves("PRODUCTION")).toBe(false)
      const refused = yield* Effect.either(alone.open(request("PRODUCTION", "crm-42")))
      expect(Either.isLeft(refused) && refused.left.code).toBe("NOT_IMPLEMENTED")
      const real: LivenessCheck.LivenessCheck["Type"] = {
        serves: (environment) => environment === "PRODUCTION",
        open: (made) => Effect.succeed({ sessionId: `vendor:${made.resetId}`, livenessAccessToken: "sdk-token" }),
        outcome: () => Effect.succeed("IN_REVIEW")
      }
      const composed = SandboxLivenessCheck.make(Option.some(real))
      expect(composed.serves("PRODUCTION")).toBe(true)
      expect(yield* composed.open(request("PRODUCTION", "crm-42-liveness-fail"))).toEqual({
        sessionId: "vendor:ScaReset:1",
        livenessAccessToken: "sdk-token"
      })
      expect(yield* outcomeOf(composed, "PRODUCTION", "x")).toBe("IN_REVIEW")
      // Sandbox platforms keep the magic values.
      expect(yield* outcomeOf(composed, "SANDBOX", "crm-liveness-fail")).toBe("FAILED")
    })
  )
})
