import { Context, type Effect, type Option, Schema } from "effect"
import type { ExternalAccountInfo } from "@payrail/account-formats"
import type { InvalidBankAccount } from "./AccountErrors.js"

export { InvalidBankAccount } from "./AccountErrors.js"

/**
 * Beneficiary name verification: when an external account is created, the rail compares the beneficiary's name
 * with the holder of the account (confirmation of payee, account-name lookup) and may return the holder's name.
 */

/**
 * The outcome of a name check: `MATCHED` (exact), `PARTIAL_MATCH` (fuzzy), `NOT_MATCHED`, `UNSUPPORTED` (the rail has
 * no name verification), `CHECKED_BY_RECEIVING_FI` (deferred to the receiving bank, e.g. ACH), `PENDING`.
 */
export const BeneficiaryVerificationStatus = Schema.Literal(
  "MATCHED",
  "PARTIAL_MATCH",
  "NOT_MATCHED",
  "UNSUPPORTED",
  "CHECKED_BY_RECEIVING_FI",
  "PENDING"
)
export type BeneficiaryVerificationStatus = typeof BeneficiaryVerificationStatus.Type

/** What the rail returned about the holder: `fullName`, the holder's name as the rail knows it. */
export const BeneficiaryVerifiedData = Schema.Struct({
  fullName: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "BeneficiaryVerifiedData" })
export type BeneficiaryVerifiedData = typeof BeneficiaryVerifiedData.Type

/**
 * The result to store on the external account as `beneficiaryVerificationStatus` and, when present,
 * `beneficiaryVerifiedData`.
 */
export const NameVerification = Schema.Struct({
  beneficiaryVerificationStatus: BeneficiaryVerificationStatus,
  beneficiaryVerifiedData: Schema.optionalWith(BeneficiaryVerifiedData, { exact: true })
}).annotations({ identifier: "NameVerification" })
export type NameVerification = typeof NameVerification.Type

/**
 * The name verification provider. `@payrail/sandbox` implements it with the spec's 1xx suffixes; a real provider
 * plugs in here. `verify` is called once per external account creation, before the account is stored and outside
 * any unit of work; it keeps no state, so concurrent calls are independent and a retried creation may call it again.
 * It succeeds with `None` when no name check applies to the account (crypto wallets and Lightning destinations, whose
 * rails carry no holder name), and fails with `InvalidBankAccount` when the rail rejects the account itself.
 */
export class NameVerificationProvider extends Context.Tag("@payrail/core/NameVerificationProvider")<
  NameVerificationProvider,
  {
    readonly verify: (input: {
      readonly accountInfo: ExternalAccountInfo.ExternalAccountInfo
    }) => Effect.Effect<Option.Option<NameVerification>, InvalidBankAccount>
  }
>() {}
