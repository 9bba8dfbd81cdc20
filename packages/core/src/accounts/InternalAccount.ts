import { Schema } from "effect"
import { Customer } from "../customers/index.js"
import { Currency, Money, ResourceId, SchemaClass } from "../kernel/index.js"

/** `InternalAccount:<uuid>`: a balance held by the service, in the ledger. */
export const InternalAccountId = ResourceId.make("InternalAccount")
export type InternalAccountId = typeof InternalAccountId.Type

/** Fiat balance, crypto balance, or a self-custody embedded wallet (every outbound action signed on the device). */
export const InternalAccountType = Schema.Literal("INTERNAL_FIAT", "INTERNAL_CRYPTO", "EMBEDDED_WALLET")
export type InternalAccountType = typeof InternalAccountType.Type

export const InternalAccountStatus = Schema.Literal("PENDING", "ACTIVE", "CLOSED", "FROZEN", "FAILED")
export type InternalAccountStatus = typeof InternalAccountStatus.Type

/**
 * An internal account as stored: who owns it (a customer, or the platform when `customerId` is absent), its
 * currency and type. Balances live in the ledger under the same id.
 */
export class InternalAccount extends SchemaClass.Class<InternalAccount>("InternalAccountRecord")({
  id: InternalAccountId,
  customerId: Schema.optional(Customer.CustomerId),
  type: InternalAccountType,
  currency: Currency.CurrencyCode,
  status: InternalAccountStatus,
  privateEnabled: Schema.optional(Schema.Boolean),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/**
 * An internal account as the API shows it: `balance` is available (excludes reserved funds), `totalBalance`
 * includes them. `fundingPaymentInstructions` is empty for embedded wallets.
 */
export const InternalAccountView = Schema.Struct({
  id: InternalAccountId,
  customerId: Schema.optional(Customer.CustomerId),
  type: InternalAccountType,
  status: InternalAccountStatus,
  balance: Money.CurrencyAmount,
  totalBalance: Money.CurrencyAmount,
  fundingPaymentInstructions: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  privateEnabled: Schema.optional(Schema.Boolean),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "InternalAccount" })
export type InternalAccountView = typeof InternalAccountView.Type
