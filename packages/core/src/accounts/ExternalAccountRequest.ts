import { Schema } from "effect"
import { OwnershipType } from "./ExternalAccountStatus.js"
import { Customer } from "../customers/index.js"
import { Currency } from "../kernel/index.js"
import { ExternalAccountInfo, FieldFormat } from "@payrail/account-formats"

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/**
 * Body of `POST /customers/external-accounts` (and, without `customerId`, of `POST /platform/external-accounts`).
 * Decoding reports every invalid field, `accountInfo.*` included.
 */
export const CreateExternalAccountRequest = Schema.Struct({
  customerId: optional(Customer.CustomerId),
  currency: Currency.CurrencyCode,
  platformAccountId: optional(FieldFormat.Text(255)),
  ownershipType: optional(OwnershipType),
  defaultUmaDepositAccount: optional(Schema.Boolean),
  accountInfo: ExternalAccountInfo.ExternalAccountInfo
}).annotations({
  identifier: "CreateExternalAccountRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type CreateExternalAccountRequest = typeof CreateExternalAccountRequest.Type

/** Methods of proving control of a wallet. Only `WALLET_SIGNATURE` is offered. */
export const ChallengeMethod = Schema.Literal("WALLET_SIGNATURE")

/** Body of `POST …/external-accounts/{id}/challenge`. */
export const OwnershipChallengeRequest = Schema.Struct({
  method: ChallengeMethod
}).annotations({ identifier: "OwnershipChallengeRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })

/** The challenge: the exact message the wallet signs, and until when it can be answered. */
export const OwnershipChallenge = Schema.Struct({
  method: ChallengeMethod,
  messageToSign: Schema.String,
  expiresAt: Schema.DateTimeUtc
}).annotations({ identifier: "OwnershipChallenge" })
export type OwnershipChallenge = typeof OwnershipChallenge.Type

/** Body of `POST …/external-accounts/{id}/verify`: the wallet's signature of `messageToSign`. */
export const OwnershipVerificationRequest = Schema.Struct({
  signature: FieldFormat.Text(2048),
  signatureScheme: optional(Schema.Literal("bip137", "electrum"))
}).annotations({
  identifier: "OwnershipVerificationRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type OwnershipVerificationRequest = typeof OwnershipVerificationRequest.Type
