import { Option, Schema } from "effect"
import type { Customer } from "./Customer.js"

/**
 * The events the customers context records, each carrying the customer in its wire form. The KYC/KYB ones follow
 * the reference's `CUSTOMER.{KYC,KYB}_{APPROVED,REJECTED,PENDING}` webhooks.
 */
export const CustomerEventType = Schema.Literal(
  "CUSTOMER.CREATED",
  "CUSTOMER.UPDATED",
  "CUSTOMER.KYC_APPROVED",
  "CUSTOMER.KYC_REJECTED",
  "CUSTOMER.KYC_PENDING",
  "CUSTOMER.KYB_APPROVED",
  "CUSTOMER.KYB_REJECTED",
  "CUSTOMER.KYB_PENDING"
)
export type CustomerEventType = typeof CustomerEventType.Type

/** The event announcing the customer's verification status, or none while it is `UNVERIFIED`. */
export const verificationEventType = (customer: Customer): Option.Option<CustomerEventType> => {
  const [kind, status] =
    customer.customerType === "INDIVIDUAL"
      ? (["KYC", customer.kycStatus] as const)
      : (["KYB", customer.kybStatus] as const)
  return status === "UNVERIFIED" ? Option.none() : Option.some(`CUSTOMER.${kind}_${status}` as const)
}
