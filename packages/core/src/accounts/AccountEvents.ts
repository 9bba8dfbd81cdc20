import { Schema } from "effect"

/**
 * The events the accounts context records: external-account events, carrying the account in its wire form. Money
 * arriving (sandbox funding included) is a payment event (`TransactionEvents`).
 */
export const AccountEventType = Schema.Literal(
  "EXTERNAL_ACCOUNT.CREATED",
  "EXTERNAL_ACCOUNT.STATUS_UPDATED",
  "EXTERNAL_ACCOUNT.DELETED"
)
export type AccountEventType = typeof AccountEventType.Type
