import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option } from "effect"
import { Platforms, Platform, Rails, UmaAddress, UmaDirectory } from "@payrail/core"
import { SandboxRails, SandboxUmaAddresses, SandboxUmaDirectory } from "@payrail/sandbox"

const startedAt = DateTime.unsafeMake(Date.UTC(2026, 0, 1))
const later = (duration: Duration.DurationInput) => DateTime.addDuration(startedAt, duration)

const leg = (umaAddress: string): Rails.RailLeg => ({
  direction: "PAYOUT",
  purpose: "QUOTE",
  counterparty: { _tag: "UmaAddress", umaAddress },
  currency: "USD",
  amountMinor: 1_000n,
  transactionId: "Transaction:00000000-0000-4000-8000-000000000001",
  startedAt
})

const platform = new Platform.Platform({
  id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
  name: "Sandbox",
  environment: "SANDBOX",
  config: Platforms.defaultConfig,
  createdAt: startedAt,
  updatedAt: startedAt
})

const receiver = (address: string) =>
  Effect.flatMap(UmaDirectory.UmaDirectory, (directory) =>
    directory.receiver({ platform, receiver: UmaAddress.UmaAddress.make(address), sender: Option.none() })
  ).pipe(Effect.provide(SandboxUmaDirectory.layer))

describe("sandbox UMA addresses", () => {
  it("reads behavior and currency on both sandbox domains, case-insensitively", () => {
    expect(SandboxUmaAddresses.read("$success.usd@sandbox.uma.money")).toEqual(
      Option.some(Option.some({ behavior: "SUCCESS", currency: "USD" }))
    )
    expect(SandboxUmaAddresses.read("$Pending.Long.EUR@sandbox.grid.uma.money")).toEqual(
      Option.some(Option.some({ behavior: "PENDING_LONG", currency: "EUR" }))
    )
    expect(SandboxUmaAddresses.read("$fail.compliance.mxn@sandbox.uma.money")).toEqual(
      Option.some(Option.some({ behavior: "FAIL_COMPLIANCE", currency: "MXN" }))
    )
    expect(SandboxUmaAddresses.read("$success.xyz@sandbox.uma.money")).toEqual(Option.some(Option.none()))
    expect(SandboxUmaAddresses.read("$alice@sandbox.uma.money")).toEqual(Option.some(Option.none()))
    expect(SandboxUmaAddresses.read("$success.usd@example.com")).toEqual(Option.none())
  })

  it.effect("answers the receiver of each address: its one currency, USD elsewhere, none for other sandbox names", () =>
    Effect.gen(function* () {
      expect(yield* receiver("$success.mxn@sandbox.uma.money")).toEqual({
        currencies: ["MXN"],
        requiredPayerDataFields: [{ name: "FULL_NAME", mandatory: false }],
        receiverCustomerInfo: { FULL_NAME: "Sandbox Receiver SUCCESS" }
      })
      expect((yield* receiver("$bob@wallet.example")).receiverCustomerInfo).toBeUndefined()
      expect((yield* receiver("$bob@wallet.example")).currencies).toEqual(["USD"])
      expect(yield* Effect.flip(receiver("$bob@sandbox.uma.money"))).toMatchObject({
        code: "UMA_NOT_FOUND",
        details: { receiverUmaAddress: "$bob@sandbox.uma.money" }
      })
    })
  )

  it("pays success at once, pending.long after an hour, and fails compliance", () => {
    const status = (address: string, at: DateTime.Utc) => SandboxRails.umaStatus(leg(address), at)
    expect(status("$success.eur@sandbox.uma.money", startedAt)).toEqual(Option.some({ _tag: "Completed" }))
    const pendingUntil = later("1 hour")
    expect(status("$pending.long.usd@sandbox.uma.money", later("59 minutes"))).toEqual(
      Option.some({ _tag: "Pending", checkAt: pendingUntil })
    )
    expect(status("$pending.long.usd@sandbox.uma.money", pendingUntil)).toEqual(Option.some({ _tag: "Completed" }))
    expect(status("$fail.compliance.usd@sandbox.grid.uma.money", startedAt)).toEqual(
      Option.some({ _tag: "Failed", reason: "COMPLIANCE_REJECTED", cancelledByUser: false })
    )
    // Any other address is decided by the suffix tables on its user part.
    expect(status("$bob002@wallet.example", startedAt)).toEqual(Option.none())
  })

  it.effect("applies the UMA table before the suffix tables", () =>
    Effect.gen(function* () {
      const rails = yield* Rails.Rails
      expect(yield* rails.status(leg("$fail.compliance.usd@sandbox.uma.money"), startedAt)).toMatchObject({
        _tag: "Failed",
        reason: "COMPLIANCE_REJECTED"
      })
      expect(yield* rails.status(leg("$bob002@wallet.example"), startedAt)).toMatchObject({
        _tag: "Failed",
        reason: "QUOTE_EXECUTION_FAILED"
      })
    }).pipe(Effect.provide(SandboxRails.layer))
  )
})
