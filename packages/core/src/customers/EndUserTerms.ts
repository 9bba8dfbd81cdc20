import { Context, Either, Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { EndUserTermsVersionNotFound } from "./CustomerErrors.js"

/**
 * The End User Terms customers accept (`GET /customers/end-user-terms`, the reference API's shape): the current
 * version and where it is published. The operator of a deployment publishes its own terms and provides them here
 * (`Layer.succeed(EndUserTerms.Current, {...})`); the default names version `V1` at the project's address.
 */
export const EndUserTermsView = Schema.Struct({
  version: Schema.String,
  url: Schema.String
}).annotations({ identifier: "EndUserTerms" })
export type EndUserTermsView = typeof EndUserTermsView.Type

/** The terms a deployment answers until its operator sets its own. */
export const defaultTerms: EndUserTermsView = { version: "V1", url: "https://payrail.dev/legal/end-user-terms/V1" }

/** The current terms of this deployment (the reference server reads them from `PAYRAIL_END_USER_TERMS_*`). */
export class Current extends Context.Reference<Current>()("@payrail/core/EndUserTerms/Current", {
  defaultValue: (): EndUserTermsView => defaultTerms
}) {}

/** How the customer accepted the terms (the reference's values). */
export const AcceptanceMethod = Schema.Literal("CHECKBOX", "CLICK_TO_ACCEPT")
export type AcceptanceMethod = typeof AcceptanceMethod.Type

/**
 * A customer's acceptance of the End User Terms, `endUserTermsConsent` on `POST`/`PATCH /customers` and on the
 * customer (the reference's `EndUserTermsConsentRequest`): every field required, `ipAddress` at most 45 characters
 * (an IPv6 address with an IPv4 tail). `termsVersion` must be the version `GET /customers/end-user-terms` answers
 * when the consent is given; the record keeps the version accepted even after the terms change.
 */
export const EndUserTermsConsent = Schema.Struct({
  acceptedAt: Schema.DateTimeUtc,
  ipAddress: FieldFormat.Text(45),
  termsVersion: FieldFormat.Text(64),
  acceptanceMethod: AcceptanceMethod
}).annotations({ identifier: "EndUserTermsConsent" })
export type EndUserTermsConsent = typeof EndUserTermsConsent.Type

/**
 * Whether a consent (if any) accepts the `current` terms: the check of `POST`/`PATCH /customers`, so every path that
 * changes a customer refuses the same consents, with `EndUserTermsVersionNotFound`.
 */
export const checkVersion = (
  consent: EndUserTermsConsent | undefined,
  current: EndUserTermsView
): Either.Either<void, EndUserTermsVersionNotFound> =>
  consent === undefined || consent.termsVersion === current.version
    ? Either.void
    : Either.left(EndUserTermsVersionNotFound.of(consent.termsVersion, current.version))
