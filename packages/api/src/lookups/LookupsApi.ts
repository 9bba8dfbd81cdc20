import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  CountryCode,
  EndUserTerms,
  LookupErrors,
  ReceivingInstitutions,
  UmaProviders,
  Vasps,
  WithdrawalFeeRequest
} from "@payrail/core"
import { InternalAccountsApi } from "../accounts/index.js"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { reportFieldErrors } = FieldErrorReport
const { wire } = ErrorBody
const exact = { exact: true } as const

/** 400 `INVALID_CURRENCY`: not a crypto account, not its currency, or a network that does not carry it. */
export const WithdrawalNotSupportedBody = wire(
  LookupErrors.WithdrawalNotSupported,
  400,
  "The withdrawal is not possible from this account, in this currency, on this network (`details.rule`)"
)
/** 400 `INVALID_AMOUNT`: the amount does not exceed the fees. */
export const AmountBelowFeeBody = wire(LookupErrors.AmountBelowFee, 400, "The amount does not cover the fees")

/** Query of `GET /discoveries`: a country (ISO 3166-1 alpha-2) and a fiat currency (ISO 4217), both optional. */
export const DiscoveryParams = reportFieldErrors(
  Schema.Struct({
    country: Schema.optionalWith(CountryCode.CountryCode, exact),
    currency: Schema.optionalWith(ReceivingInstitutions.FiatCurrencyCode, exact)
  })
)

/** Query of `GET /uma-providers`: the reference's filters, `sortOrder` and paging. */
export const UmaProviderParams = reportFieldErrors(
  Schema.Struct({
    countryCode: Schema.optionalWith(CountryCode.CountryCode, exact),
    currencyCode: Schema.optionalWith(ReceivingInstitutions.FiatCurrencyCode, exact),
    hasBlockedProviders: Schema.optionalWith(Schema.BooleanFromString, exact),
    sortOrder: Schema.optionalWith(Schema.Literal("asc", "desc"), exact),
    ...ListQuery.pageParams
  })
)

/** Query of `GET /vasps`: a name to search for (case-insensitive substring) and paging. */
export const VaspParams = reportFieldErrors(
  Schema.Struct({
    search: Schema.optionalWith(
      Schema.String.pipe(Schema.maxLength(255, { description: "at most 255 characters" })),
      exact
    ),
    ...ListQuery.pageParams
  })
)

/** `{data}` of `GET /discoveries` (unpaginated, as the reference). */
export const DiscoveryListResponse = Schema.Struct({ data: Schema.Array(ReceivingInstitutions.Discovery) }).annotations(
  {
    identifier: "DiscoveryListResponse"
  }
)

/**
 * Lookups (HTTP Basic, VIEW): receiving institutions per corridor, UMA providers, VASPs, a crypto withdrawal's fee
 * estimate and the current End User Terms.
 */
export class LookupsApi extends HttpApiGroup.make("lookups")
  .add(
    HttpApiEndpoint.get("discoveries", "/discoveries")
      .setUrlParams(DiscoveryParams)
      .addSuccess(DiscoveryListResponse)
      .annotate(OpenApi.Summary, "List available receiving institution names")
      .annotate(
        OpenApi.Description,
        "The receiving institutions of a corridor (`country`, `currency`; all of them without filters), from the " +
          "data set the project ships (a public SWIFT directory; docs/discoveries.md). `bankName` is the value for " +
          "`accountInfo.bankName`. A corridor with no institutions answers an empty list; an unknown country or " +
          "currency is a 400 naming the field."
      )
  )
  .add(
    HttpApiEndpoint.get("umaProviders", "/uma-providers")
      .setUrlParams(UmaProviderParams)
      .addSuccess(ListQuery.ListResponse(UmaProviders.UmaProvider, "UmaProviderListResponse"))
      .annotate(OpenApi.Summary, "List available counterparty UMA providers")
      .annotate(
        OpenApi.Description,
        "The other platforms of this deployment, in your environment, that serve UMA (an `umaDomain`): name, " +
          "domain, regions, currencies. Filters `countryCode`, `currencyCode`, `hasBlockedProviders`; newest first " +
          "unless `sortOrder=asc`."
      )
  )
  .add(
    HttpApiEndpoint.get("vasps", "/vasps")
      .setUrlParams(VaspParams)
      .addSuccess(ListQuery.ListResponse(Vasps.Vasp, "VaspListResponse"))
      .annotate(OpenApi.Summary, "List VASPs")
      .annotate(
        OpenApi.Description,
        "The directory of virtual asset service providers (exchanges, custodians) recognized for counterparty " +
          "declarations, by name; `vaspName` is the value to declare on a custodial wallet. `search` filters by name."
      )
  )
  .add(
    HttpApiEndpoint.post("estimateWithdrawalFee", "/crypto/estimate-withdrawal-fee")
      .setPayload(reportFieldErrors(WithdrawalFeeRequest.EstimateWithdrawalFeeRequest))
      .addSuccess(WithdrawalFeeRequest.WithdrawalFeeEstimate)
      .addError(InternalAccountsApi.InternalAccountNotFoundBody)
      .addError(WithdrawalNotSupportedBody)
      .addError(AmountBelowFeeBody)
      .annotate(OpenApi.Summary, "Estimate crypto withdrawal fee")
      .annotate(
        OpenApi.Description,
        "The network fee (in the network's asset, informational) and the total fee and net amount in minor units of " +
          "the withdrawal currency, for `amount` from a crypto internal account to `destinationAddress` on " +
          "`cryptoNetwork`. Nothing is reserved. The sandbox charges a fixed fee per network (docs/crypto-withdrawal-fees.md)."
      )
  )
  .add(
    HttpApiEndpoint.get("endUserTerms", "/customers/end-user-terms")
      .addSuccess(EndUserTerms.EndUserTermsView)
      .annotate(OpenApi.Summary, "Get the current End User Terms")
      .annotate(
        OpenApi.Description,
        "The current version of the End User Terms customers accept, and where it is published."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Lookups")
  .annotate(
    OpenApi.Description,
    "Directories and estimates: institutions, UMA providers, VASPs, withdrawal fees, terms."
  ) {}
