import { describe, expect, it } from "@effect/vitest"
import { DateTime, Option } from "effect"
import { Customer, InternalAccount, Ledger, Platform, SystemAccounts, UmaReceipts } from "@payrail/core"

const platformId = Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000000")
const customerId = Customer.CustomerId.make("Customer:00000000-0000-4000-8000-000000000001")

const account = (
  n: number,
  fields: Partial<Pick<InternalAccount.InternalAccount, "type" | "currency" | "status">> & { readonly minute: number }
) =>
  new InternalAccount.InternalAccount({
    id: InternalAccount.InternalAccountId.make(`InternalAccount:00000000-0000-4000-8000-00000000000${n}`),
    customerId,
    type: fields.type ?? "INTERNAL_FIAT",
    currency: fields.currency ?? "USD",
    status: fields.status ?? "ACTIVE",
    createdAt: DateTime.unsafeMake(Date.UTC(2026, 0, 1, 0, fields.minute)),
    updatedAt: DateTime.unsafeMake(Date.UTC(2026, 0, 1, 0, fields.minute))
  })

describe("UmaReceipts.primaryAccount", () => {
  it("is the oldest active account of the currency that is not an embedded wallet", () => {
    const wallet = account(1, { type: "EMBEDDED_WALLET", minute: 0 })
    const frozen = account(2, { status: "FROZEN", minute: 1 })
    const euro = account(3, { currency: "EUR", minute: 2 })
    const primary = account(4, { minute: 3 })
    const younger = account(5, { type: "INTERNAL_CRYPTO", minute: 4 })
    const accounts = [younger, euro, primary, frozen, wallet]
    expect(UmaReceipts.primaryAccount(accounts, "USD")).toEqual(Option.some(primary))
    expect(UmaReceipts.primaryAccount(accounts, "EUR")).toEqual(Option.some(euro))
    expect(UmaReceipts.primaryAccount([wallet, frozen], "USD")).toEqual(Option.none())
    expect(UmaReceipts.primaryAccount(accounts, "MXN")).toEqual(Option.none())
  })
})

describe("UmaReceipts.entriesOf", () => {
  const clearing = SystemAccounts.accountId(platformId, "RAIL_CLEARING", "MXN")
  const valid = (entries: ReadonlyArray<Ledger.Entry>) =>
    Ledger.validatePosting({ platformId, idempotencyKey: "k", status: "posted", description: "", entries })
  // The entries of a receipt of 500 minor units of MXN deposited to `accountId`.
  const entriesTo = (accountId: string, internal: boolean) =>
    UmaReceipts.entriesOf(platformId, { accountId, currency: "MXN", internal }, 500n)

  it("credits an internal deposit from rail clearing", () => {
    const entries = entriesTo("InternalAccount:x", true)
    expect(entries).toEqual([
      { accountId: clearing, currency: "MXN", amountMinor: -500n },
      { accountId: "InternalAccount:x", currency: "MXN", amountMinor: 500n }
    ])
    expect(valid(entries)._tag).toBe("Right")
  })

  it("passes a deposit to an external account through rail clearing, balanced and holding nothing", () => {
    const entries = entriesTo("ExternalAccount:x", false)
    expect(entries).toEqual([
      { accountId: clearing, currency: "MXN", amountMinor: -500n },
      { accountId: clearing, currency: "MXN", amountMinor: 500n }
    ])
    expect(valid(entries)._tag).toBe("Right")
  })
})
