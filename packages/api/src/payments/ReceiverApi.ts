import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Customer, ExternalAccount, FieldFormat, UmaErrors, UmaLookup } from "@payrail/core"
import { ExternalAccountsApi } from "../accounts/index.js"
import { CustomersApi } from "../customers/index.js"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import { QuoteRateUnavailableBody } from "./PricingErrorBodies.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/** 400 `INVALID_UMA_ADDRESS`: `details.field` names where the malformed address was. */
export const InvalidUmaAddressBody = wire(
  UmaErrors.InvalidUmaAddress,
  400,
  "Not an UMA address `$<username>@<domain>`; `details.field` names where it was"
)
/** 404 `UMA_NOT_FOUND`: no receiver at the address (on the platform's own domain: no customer has it). */
export const UmaNotFoundBody = wire(UmaErrors.UmaNotFound, 404, "No receiver has this UMA address")
/** 400 `LOOKUP_REQUEST_FAILED`: the counterparty's UMA service could not answer. */
export const UmaLookupFailedBody = wire(UmaErrors.UmaLookupFailed, 400, "The counterparty's UMA service did not answer")
/** 404 `LOOKUP_REQUEST_NOT_FOUND`: a quote's `lookupId` names no lookup of this platform. */
export const LookupNotFoundBody = wire(UmaErrors.LookupNotFound, 404, "No such receiver lookup on this platform")
/** 400 `MISSING_MANDATORY_USER_INFO`: `senderCustomerInfo` lacks mandatory payer data (`details.missingFields`). */
export const MissingMandatoryUserInfoBody = wire(
  UmaErrors.MissingMandatoryUserInfo,
  400,
  "senderCustomerInfo lacks payer data the receiver requires (`details.missingFields`)"
)

/** Query of both lookups: who sends, both optional. */
export const LookupParams = reportFieldErrors(
  Schema.Struct({
    senderUmaAddress: Schema.optional(
      FieldFormat.Text(320).annotations({ description: "The sender's UMA address ($ optional)" })
    ),
    customerId: Schema.optional(
      Customer.CustomerId.annotations({
        description: "The customer who will pay; a quote with the lookup must be theirs"
      })
    )
  })
)

const UmaPath = reportFieldErrors(
  Schema.Struct({
    receiverUmaAddress: Schema.String.annotations({
      description: "The receiver's UMA address, URL-encoded (`%24alice%40example.com`); the `$` may be left out"
    })
  })
)
const AccountPath = reportFieldErrors(Schema.Struct({ accountId: ExternalAccount.ExternalAccountId }))

const lookupDescription =
  "Stores a lookup (`lookupId`, valid 15 minutes) that a quote to this receiver must name. `supportedCurrencies` lists the currencies the receiver accepts that the platform supports, preferred first, each with an indicative `estimatedExchangeRate` (units of the platform's first supported currency per unit) and the platform's `min` and `max` in minor units; `requiredPayerDataFields` lists the payer data a quote must carry in `senderCustomerInfo` (the `mandatory` ones)."

/** Receiver lookups (VIEW): who receives at an UMA address or an external account, before quoting a payment to it. */
export class ReceiverApi extends HttpApiGroup.make("receiver")
  .add(
    HttpApiEndpoint.get("lookupUma", "/receiver/uma/:receiverUmaAddress")
      .setPath(UmaPath)
      .setUrlParams(LookupParams)
      .addSuccess(UmaLookup.ReceiverLookupResponse)
      .addError(InvalidUmaAddressBody)
      .addError(UmaNotFoundBody)
      .addError(UmaLookupFailedBody)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(QuoteRateUnavailableBody)
      .annotate(OpenApi.Summary, "Look up an UMA address")
      .annotate(
        OpenApi.Description,
        `${lookupDescription} An address on the platform's own UMA domain is one of its customers (404 \`UMA_NOT_FOUND\` if none has it); in the sandbox, the spec's sandbox addresses answer as documented and any other domain is a simulated counterparty that accepts USD.`
      )
  )
  .add(
    HttpApiEndpoint.get("lookupExternalAccount", "/receiver/external-account/:accountId")
      .setPath(AccountPath)
      .setUrlParams(LookupParams)
      .addSuccess(UmaLookup.ReceiverLookupResponse)
      .addError(ExternalAccountsApi.NotFoundBody)
      .addError(InvalidUmaAddressBody)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(QuoteRateUnavailableBody)
      .annotate(OpenApi.Summary, "Look up an external account")
      .annotate(OpenApi.Description, `${lookupDescription} An external account receives in its own currency.`)
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Receivers")
  .annotate(
    OpenApi.Description,
    "Lookups of a payment's receiver (an UMA address or an external account): the currencies it accepts and the payer data it needs."
  ) {}
