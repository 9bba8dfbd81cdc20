import { DateTime, Either } from "effect"
import { FieldError, InvalidInput } from "../kernel/index.js"
import { BusinessCustomer, type Customer, IndividualCustomer } from "./Customer.js"
import type { CreateCustomerRequest, UpdateCustomerRequest } from "./CustomerRequest.js"
import * as ContactVerification from "./ContactVerification.js"

const fieldError = (field: string, message: string, constraint?: FieldError.FieldConstraint) =>
  new FieldError.FieldError({ field, message, ...(constraint === undefined ? {} : { constraint }) })

/**
 * An update changes one contact at a time, as the reference's does: `email` and `phoneNumber` in one request are
 * refused (each change may need its own verification or signed retry), naming `phoneNumber`.
 */
export const checkOneContact = (request: UpdateCustomerRequest): Either.Either<void, InvalidInput.InvalidInput> =>
  request.email !== undefined && request.phoneNumber !== undefined
    ? Either.left(
        InvalidInput.InvalidInput.withErrors([
          fieldError("phoneNumber", "cannot change in the same request as email: send one PATCH for each")
        ])
      )
    : Either.void

/**
 * The dates of a request that cannot lie ahead of `today` (a `YYYY-MM-DD` in UTC): a birth date and an
 * incorporation date. Their format is checked by the schema; this is the rule that needs the clock.
 */
export const checkPastDates = (
  request: CreateCustomerRequest | UpdateCustomerRequest,
  today: string
): Either.Either<void, InvalidInput.InvalidInput> => {
  const dates =
    request.customerType === "INDIVIDUAL"
      ? [["birthDate", request.birthDate] as const]
      : [["businessInfo.incorporatedOn", request.businessInfo?.incorporatedOn] as const]
  // ISO calendar dates of four-digit years compare as text in calendar order.
  const future = dates.filter(([, date]) => date !== undefined && date > today)
  return future.length === 0
    ? Either.void
    : Either.left(
        InvalidInput.InvalidInput.withErrors(future.map(([field]) => fieldError(field, "must not be in the future")))
      )
}

/** Today's date in UTC as `YYYY-MM-DD`. */
export const today = (now: DateTime.Utc): string => DateTime.formatIso(now).slice(0, 10)

/**
 * The `contactVerification` members a record carries after a change from `previous` (none for a new customer):
 * `ContactVerification.reconcile`, as an object to spread, empty when the region does not verify contacts.
 */
export const contactFields = (
  previous: Customer | undefined,
  next: Parameters<typeof ContactVerification.reconcile>[1]
): { readonly contactVerification?: ContactVerification.ContactVerification } => {
  const contactVerification = ContactVerification.reconcile(previous, next)
  return contactVerification === undefined ? {} : { contactVerification }
}

/**
 * The customer with the request's fields applied over the current ones (the verification status and the
 * identifier are not fields of the record). The request's `customerType` must be the customer's. A changed email
 * or phone number is `PENDING` verification again (`ContactVerification.reconcile`).
 */
export const apply = (
  current: Customer,
  request: UpdateCustomerRequest,
  updatedAt: DateTime.Utc
): Either.Either<Customer, InvalidInput.InvalidInput> => {
  if (current.customerType === "INDIVIDUAL" && request.customerType === "INDIVIDUAL") {
    const { customerType: _type, identifier: _identifier, ...fields } = request
    const { contactVerification: _contacts, ...rest } = current
    const next = { ...rest, ...fields, updatedAt }
    return Either.right(new IndividualCustomer({ ...next, ...contactFields(current, next) }))
  }
  if (current.customerType === "BUSINESS" && request.customerType === "BUSINESS") {
    const { customerType: _type, businessInfo, ...fields } = request
    const { contactVerification: _contacts, ...rest } = current
    const next = { ...rest, ...fields, businessInfo: { ...current.businessInfo, ...businessInfo }, updatedAt }
    return Either.right(new BusinessCustomer({ ...next, ...contactFields(current, next) }))
  }
  return Either.left(
    InvalidInput.InvalidInput.withErrors([
      fieldError("customerType", `must match the customer's type ${current.customerType}`, {
        enum: [current.customerType]
      })
    ])
  )
}
