import { Schema } from "effect"

/**
 * The events the accounts context records. External-account events carry the account in its wire form;
 * `INCOMING_PAYMENT` (the spec's name for money arriving, here from sandbox funding) carries the posting, the amount
 * and the credited internal account.
 */
export const AccountEventType = Schema.Literal(
  "EXTERNAL_ACCOUNT.CREATED",
  "EXTERNAL_ACCOUNT.STATUS_UPDATED",
  "EXTERNAL_ACCOUNT.DELETED",
  "INCOMING_PAYMENT"
)
export type AccountEventType = typeof AccountEventType.Type
