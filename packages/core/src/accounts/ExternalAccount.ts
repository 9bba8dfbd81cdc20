import { Schema } from "effect"
import { ExternalAccountStatus, OwnershipType } from "./ExternalAccountStatus.js"
import { BeneficiaryVerificationStatus, BeneficiaryVerifiedData } from "./NameVerificationProvider.js"
import { Customer } from "../customers/index.js"
import { Currency, ResourceId, SchemaClass } from "../kernel/index.js"
import { ExternalAccountInfo } from "@payrail/account-formats"

/** `ExternalAccount:<uuid>`: a bank account, wallet or Lightning destination outside the service. */
export const ExternalAccountId = ResourceId.make("ExternalAccount")
export type ExternalAccountId = typeof ExternalAccountId.Type

/**
 * An external account as the API returns it. `customerId` is absent for the platform's own accounts.
 * `defaultUmaDepositAccount` is true on at most one account per customer.
 */
export class ExternalAccount extends SchemaClass.Class<ExternalAccount>("ExternalAccount")({
  id: ExternalAccountId,
  customerId: Schema.optional(Customer.CustomerId),
  status: ExternalAccountStatus,
  platformAccountId: Schema.optional(Schema.String),
  ownershipType: Schema.optional(OwnershipType),
  currency: Currency.CurrencyCode,
  defaultUmaDepositAccount: Schema.Boolean,
  beneficiaryVerificationStatus: Schema.optional(BeneficiaryVerificationStatus),
  beneficiaryVerifiedData: Schema.optional(BeneficiaryVerifiedData),
  accountInfo: ExternalAccountInfo.ExternalAccountInfo,
  /** Until when the open ownership challenge can be answered; absent when no challenge is open. */
  ownershipChallengeExpiresAt: Schema.optional(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}
