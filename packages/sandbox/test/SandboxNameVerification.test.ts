import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Exit, Option, Schema } from "effect"
import { ExternalAccountInfo, NameVerificationProvider } from "@payrail/core"
import { SandboxNameVerification } from "@payrail/sandbox"

const usd = (
  accountNumber: string,
  beneficiary: unknown = { beneficiaryType: "INDIVIDUAL", fullName: "John Michael Doe" }
) =>
  Schema.decodeUnknownSync(ExternalAccountInfo.ExternalAccountInfo)({
    accountType: "USD_ACCOUNT",
    accountNumber,
    routingNumber: "021000021",
    beneficiary
  })

const verify = (accountInfo: ExternalAccountInfo.ExternalAccountInfo) =>
  Effect.flatMap(NameVerificationProvider.NameVerificationProvider, (provider) =>
    provider.verify({ accountInfo })
  ).pipe(Effect.provide(SandboxNameVerification.layer))

describe("SandboxNameVerification", () => {
  it("maps the identifier's 1xx suffix to the spec's outcomes", () => {
    const status = (accountNumber: string) =>
      Either.getOrThrow(SandboxNameVerification.nameVerificationFor(usd(accountNumber))).pipe(
        Option.map((result) => result.beneficiaryVerificationStatus),
        Option.getOrUndefined
      )
    expect(
      ["1000102", "1000103", "1000104", "1000106", "1000107", "1000101", "1000108", "1000002"].map(status)
    ).toEqual([
      "NOT_MATCHED",
      "PARTIAL_MATCH",
      "PENDING",
      "UNSUPPORTED",
      "CHECKED_BY_RECEIVING_FI",
      "MATCHED",
      "MATCHED",
      "MATCHED"
    ])
  })

  it("returns the holder name for MATCHED and a plausibly different one for PARTIAL_MATCH only", () => {
    const result = (accountNumber: string, beneficiary?: unknown) =>
      Option.getOrThrow(Either.getOrThrow(SandboxNameVerification.nameVerificationFor(usd(accountNumber, beneficiary))))
    expect(result("1000555")).toEqual({
      beneficiaryVerificationStatus: "MATCHED",
      beneficiaryVerifiedData: { fullName: "John Michael Doe" }
    })
    expect(result("1000103").beneficiaryVerifiedData).toEqual({ fullName: "J. Michael Doe" })
    expect(
      result("1000103", { beneficiaryType: "BUSINESS", legalName: "Acme Corporation, Inc." }).beneficiaryVerifiedData
    ).toEqual({ fullName: "ACME CORPORATION INC" })
    expect(result("1000102").beneficiaryVerifiedData).toBeUndefined()
    expect(result("1000104").beneficiaryVerifiedData).toBeUndefined()
  })

  it("always makes the partial-match name differ from the given one", () => {
    for (const [name, type] of [
      ["John Doe", "INDIVIDUAL"],
      ["J. Doe", "INDIVIDUAL"],
      ["MADONNA", "INDIVIDUAL"],
      ["Acme", "BUSINESS"],
      ["123", "BUSINESS"]
    ] as const) {
      expect(SandboxNameVerification.partialMatchName(name, type)).not.toBe(name)
    }
  })

  it.effect("fails suffix 105 with INVALID_BANK_ACCOUNT through the port", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(verify(usd("1000105")))
      expect(exit).toEqual(Exit.fail(NameVerificationProvider.InvalidBankAccount.of()))
      if (Exit.isFailure(exit)) expect(JSON.stringify(exit.cause)).not.toContain("1000105")
      expect(yield* verify(usd("1000103"))).toMatchObject(
        Option.some({ beneficiaryVerificationStatus: "PARTIAL_MATCH" })
      )
    })
  )

  it.effect("reads other identifiers, and skips wallets and Lightning", () =>
    Effect.gen(function* () {
      const decode = Schema.decodeUnknownSync(ExternalAccountInfo.ExternalAccountInfo)
      const kes = decode({
        accountType: "KES_ACCOUNT",
        phoneNumber: "+254712345102",
        provider: "M-Pesa",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Wanjiru Kamau" }
      })
      expect(yield* verify(kes)).toMatchObject(Option.some({ beneficiaryVerificationStatus: "NOT_MATCHED" }))
      const wallet = decode({ accountType: "TRON_WALLET", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" })
      expect(yield* verify(wallet)).toEqual(Option.none())
      const lightning = decode({ accountType: "LIGHTNING", lightningAddress: "alice105@getalby.com" })
      expect(yield* verify(lightning)).toEqual(Option.none())
    })
  )
})
