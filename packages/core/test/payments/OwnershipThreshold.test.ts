import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Layer } from "effect"
import { FxRateCache, OwnershipThreshold, Rate } from "@payrail/core"

// EUR at 0.8 per USD: a euro costs 1.25 USD; one US dollar cent is 0.8 euro cents.
const rates = Layer.succeed(FxRateCache.FxRateCache, {
  rate: (from: string, to: string) =>
    from === to
      ? FxRateCache.sameCurrency(from)
      : Effect.succeed({
          from,
          to,
          mid: from === "USD" ? Rate.make(125n, 2) : Rate.make(1n, 0),
          spreadBps: 0,
          updatedAt: DateTime.unsafeMake(0)
        })
})

const check = (status: "ACTIVE" | "PENDING_OWNERSHIP_VERIFICATION" | "UNVERIFIED", currency: string, amount: bigint) =>
  OwnershipThreshold.check({ accountId: "ExternalAccount:w", status, currency, decimals: 2 }, amount).pipe(
    Effect.provide(rates),
    Effect.exit,
    Effect.map(Exit.isSuccess)
  )

describe("OwnershipThreshold", () => {
  it.effect("lets an unverified account receive up to EUR 1,000.00 exactly, and refuses one cent more", () =>
    Effect.gen(function* () {
      for (const status of ["PENDING_OWNERSHIP_VERIFICATION", "UNVERIFIED"] as const) {
        expect(yield* check(status, "EUR", 100_000n)).toBe(true)
        expect(yield* check(status, "EUR", 100_001n)).toBe(false)
        // USD 1,250.00 is EUR 1,000.00 at 1.25 USD per euro; a cent more is over.
        expect(yield* check(status, "USD", 125_000n)).toBe(true)
        expect(yield* check(status, "USD", 125_001n)).toBe(false)
      }
    })
  )

  it.effect("never limits a verified account", () =>
    Effect.gen(function* () {
      expect(yield* check("ACTIVE", "EUR", 10n ** 15n)).toBe(true)
    })
  )

  it.effect("answers EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED with the account and its status", () =>
    Effect.gen(function* () {
      const failure = yield* OwnershipThreshold.check(
        { accountId: "ExternalAccount:w", status: "UNVERIFIED", currency: "EUR", decimals: 2 },
        100_001n
      ).pipe(Effect.provide(rates), Effect.flip)
      expect(failure).toMatchObject({
        code: "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED",
        details: { accountId: "ExternalAccount:w", status: "UNVERIFIED" }
      })
    })
  )
})
