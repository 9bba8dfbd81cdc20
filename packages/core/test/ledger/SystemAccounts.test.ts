import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { Platform, SystemAccounts } from "@payrail/core"

const platformId = Platform.PlatformId.make("Platform:0b7e5a1c-1d2e-4f30-8a4b-5c6d7e8f9a01")
const otherPlatformId = Platform.PlatformId.make("Platform:0b7e5a1c-1d2e-4f30-8a4b-5c6d7e8f9a02")

describe("SystemAccounts", () => {
  it("names a system account by the documented scheme SystemAccount:<platformId>:<kind>:<currency>", () => {
    expect(SystemAccounts.accountId(platformId, "RAIL_CLEARING", "USD")).toBe(
      "SystemAccount:Platform:0b7e5a1c-1d2e-4f30-8a4b-5c6d7e8f9a01:RAIL_CLEARING:USD"
    )
    expect(SystemAccounts.accountId(platformId, "FX", "EUR")).not.toBe(
      SystemAccounts.accountId(otherPlatformId, "FX", "EUR")
    )
    expect(SystemAccounts.accountId(platformId, "FX", "EUR")).not.toBe(
      SystemAccounts.accountId(platformId, "FEES", "EUR")
    )
  })

  it("parses every id it builds back into its platform, kind and currency", () => {
    for (const kind of SystemAccounts.kinds) {
      for (const currency of ["USD", "USDC", "BTC", "UGX"]) {
        expect(SystemAccounts.parse(SystemAccounts.accountId(platformId, kind, currency))).toEqual(
          Option.some({ platformId, kind, currency })
        )
      }
    }
  })

  it("recognises nothing else as a system account id", () => {
    const valid = SystemAccounts.accountId(platformId, "FEES", "USD")
    for (const id of [
      "InternalAccount:0b7e5a1c-1d2e-4f30-8a4b-5c6d7e8f9a01",
      valid.replace("FEES", "TAXES"),
      valid.replace(":USD", ":XXX"),
      valid.replace("Platform:", "Customer:"),
      `${valid}:extra`,
      valid.toLowerCase(),
      ""
    ]) {
      expect(SystemAccounts.isSystemAccountId(id)).toBe(false)
    }
    expect(SystemAccounts.isSystemAccountId(valid)).toBe(true)
  })

  it("builds unguarded system accounts, one per kind and currency without duplicates, and guarded ones", () => {
    const accounts = SystemAccounts.accountsFor(platformId, ["USD", "EUR", "USD"])
    expect(accounts).toHaveLength(2 * SystemAccounts.kinds.length)
    expect(new Set(accounts.map((account) => account.id)).size).toBe(accounts.length)
    expect(accounts.every((account) => !account.guarded && account.platformId === platformId)).toBe(true)
    expect(accounts.filter((account) => account.currency === "EUR").map((account) => account.id)).toEqual(
      SystemAccounts.kinds.map((kind) => SystemAccounts.accountId(platformId, kind, "EUR"))
    )
    expect(SystemAccounts.guardedAccount(platformId, "InternalAccount:x", "USD")).toEqual({
      id: "InternalAccount:x",
      platformId,
      currency: "USD",
      guarded: true
    })
  })
})
