import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Schema } from "effect"
import { ExternalAccount, ExternalAccountInfo, Rails } from "@payrail/core"
import { SandboxRails } from "@payrail/sandbox"

const startedAt = DateTime.unsafeMake("2026-01-01T00:00:00Z")
const later = (duration: Duration.DurationInput) => DateTime.addDuration(startedAt, duration)

const account = (accountNumber: string) =>
  new ExternalAccount.ExternalAccount({
    id: ExternalAccount.ExternalAccountId.make("ExternalAccount:00000000-0000-4000-8000-000000000001"),
    status: "ACTIVE",
    currency: "USD",
    defaultUmaDepositAccount: false,
    accountInfo: Schema.decodeUnknownSync(ExternalAccountInfo.ExternalAccountInfo)({
      accountType: "USD_ACCOUNT",
      accountNumber,
      routingNumber: "021000021",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Kim Lee" }
    }),
    createdAt: startedAt,
    updatedAt: startedAt
  })

const leg = (
  accountNumber: string,
  purpose: Rails.RailLeg["purpose"],
  direction: Rails.RailLeg["direction"] = "PAYOUT"
) =>
  ({
    direction,
    purpose,
    counterparty: { _tag: "ExternalAccount", account: account(accountNumber) },
    currency: "USD",
    amountMinor: 1_000n,
    transactionId: "Transaction:00000000-0000-4000-8000-000000000002",
    startedAt
  }) satisfies Rails.RailLeg

const status = (railLeg: Rails.RailLeg, now: DateTime.Utc) =>
  Effect.runSync(
    Effect.flatMap(Rails.Rails, (rails) => rails.status(railLeg, now)).pipe(Effect.provide(SandboxRails.layer))
  )

describe("SandboxRails: quote payouts by the destination's suffix", () => {
  it("completes any other suffix at once", () => {
    expect(status(leg("1234567001", "QUOTE"), startedAt)).toEqual({ _tag: "Completed" })
    expect(status(leg("1234567008", "QUOTE"), startedAt)).toEqual({ _tag: "Completed" })
  })

  it("fails 002, 004 and 006 at once, 006 as a user cancellation", () => {
    expect(status(leg("1234567002", "QUOTE"), startedAt)).toEqual({
      _tag: "Failed",
      reason: "QUOTE_EXECUTION_FAILED",
      cancelledByUser: false
    })
    expect(status(leg("1234567004", "QUOTE"), startedAt)).toMatchObject({ reason: "COUNTERPARTY_POST_TX_FAILED" })
    expect(status(leg("1234567006", "QUOTE"), startedAt)).toMatchObject({ _tag: "Failed", cancelledByUser: true })
  })

  it("keeps 003 pending for six minutes, then completes it", () => {
    const slow = leg("1234567003", "QUOTE")
    expect(status(slow, later("5 minutes"))).toEqual({ _tag: "Pending", checkAt: later("6 minutes") })
    expect(status(slow, later("6 minutes"))).toEqual({ _tag: "Completed" })
  })

  it("completes 005 and returns it 30 seconds later", () => {
    const returned = leg("1234567005", "QUOTE")
    expect(status(returned, startedAt)).toEqual({ _tag: "Completed", checkAgainAt: later("30 seconds") })
    expect(status(returned, later("30 seconds"))).toEqual({ _tag: "Returned", reason: "PAYOUT_RETURNED" })
  })

  it("reports 007 as a payout whose refund failed", () => {
    expect(status(leg("1234567007", "QUOTE"), startedAt)).toEqual({
      _tag: "RefundFailed",
      reason: "QUOTE_EXECUTION_FAILED"
    })
  })
})

describe("SandboxRails: transfers and pulls by the account's suffix", () => {
  it("fails 002, 003 and 004 at once and succeeds otherwise", () => {
    expect(status(leg("1234567002", "TRANSFER", "PULL"), startedAt)).toMatchObject({ reason: "INSUFFICIENT_FUNDS" })
    expect(status(leg("1234567003", "TRANSFER", "PULL"), startedAt)).toMatchObject({ reason: "ACCOUNT_INVALID" })
    expect(status(leg("1234567004", "TRANSFER"), startedAt)).toMatchObject({ reason: "COUNTERPARTY_POST_TX_FAILED" })
    expect(status(leg("1234567009", "TRANSFER", "PULL"), startedAt)).toEqual({ _tag: "Completed" })
  })

  it("keeps 005 pending about 30 seconds, then fails it", () => {
    const slow = leg("1234567005", "TRANSFER", "PULL")
    expect(status(slow, later("29 seconds"))).toEqual({ _tag: "Pending", checkAt: later("30 seconds") })
    expect(status(slow, later("30 seconds"))).toMatchObject({ _tag: "Failed" })
  })

  it("reads the user part of an UMA address", () => {
    const uma = {
      ...leg("1234567001", "TRANSFER"),
      counterparty: { _tag: "UmaAddress", umaAddress: "$alice003@example.com" }
    } as const
    expect(SandboxRails.suffixOf(uma)).toBe("003")
  })
})
