import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { ContactVerificationErrors, ContactVerificationRequest, Customer } from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import { WalletErrorBodies } from "../wallets/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/**
 * 409 `CONFLICT`: the customer's region does not verify contacts, it has no such contact, or the contact is already
 * verified (`details.rule`).
 */
export const ContactVerificationConflictBody = wire(
  ContactVerificationErrors.ContactVerificationConflict,
  409,
  "Contact verification does not apply: the region does not use it, there is no such contact, or it is verified"
)

/** 400 `INVALID_INPUT`: the code is wrong, expired, voided by too many wrong codes, or was never sent. */
export const ContactCodeRefusedBody = wire(
  ContactVerificationErrors.ContactCodeRefused,
  400,
  "The code was refused (details.rule says why); the right code is never revealed"
)

const CustomerPath = reportFieldErrors(Schema.Struct({ customerId: Customer.CustomerId }))

const regions =
  "Only customers whose `region` is in the European Economic Area, the United Kingdom or Switzerland verify their contacts; others get 409 `CONFLICT`."

const send = <const Name extends string>(name: Name, path: `/${string}`, contact: string) =>
  HttpApiEndpoint.post(name, path)
    .setPath(CustomerPath)
    .addSuccess(Schema.Void, { status: 204 })
    .addError(CustomersApi.CustomerNotFoundBody)
    .addError(CustomersApi.CustomerDeletedBody)
    .addError(ContactVerificationConflictBody)
    .addError(WalletErrorBodies.OtpDeliveryFailedBody)
    .annotate(OpenApi.Summary, `Send a verification code to the customer's ${contact}`)
    .annotate(
      OpenApi.Description,
      `Sends (or re-sends, replacing the earlier code) a 6-digit code to the customer's ${contact}, valid for 10 minutes. On sandbox platforms nothing is sent and the code is always \`123456\`. ${regions} 409 also when the customer has no ${contact} or it is already verified.`
    )

const confirm = <const Name extends string>(name: Name, path: `/${string}`, contact: string) =>
  HttpApiEndpoint.post(name, path)
    .setPath(CustomerPath)
    .setPayload(reportFieldErrors(ContactVerificationRequest.ContactVerificationConfirmRequest))
    .addSuccess(Customer.Customer)
    .addError(ContactCodeRefusedBody)
    .addError(CustomersApi.CustomerNotFoundBody)
    .addError(CustomersApi.CustomerDeletedBody)
    .addError(ContactVerificationConflictBody)
    .annotate(OpenApi.Summary, `Confirm the code sent to the customer's ${contact}`)
    .annotate(
      OpenApi.Description,
      `Answers the customer with \`contactVerification.${contact === "email" ? "email" : "phone"}\` now \`VERIFIED\`. A wrong, expired or unrequested code is 400 \`INVALID_INPUT\` with \`details.rule\`; five wrong codes void the code and a new one must be sent. ${regions}`
    )

/** Contact verification: send and confirm codes for a customer's email and phone number. */
export class ContactVerificationApi extends HttpApiGroup.make("contactVerification")
  .add(send("sendEmail", "/customers/:customerId/verify-email", "email"))
  .add(confirm("confirmEmail", "/customers/:customerId/verify-email/confirm", "email"))
  .add(send("sendPhone", "/customers/:customerId/verify-phone", "phone number"))
  .add(confirm("confirmPhone", "/customers/:customerId/verify-phone/confirm", "phone number"))
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Contact verification")
  .annotate(
    OpenApi.Description,
    "Verification of a customer's email and phone number, for the regions whose providers require it before KYC."
  ) {}
