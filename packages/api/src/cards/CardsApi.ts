import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Card, CardRequest, CardReveal, Customer, InternalAccount } from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import {
  CardAlreadyClosedBody,
  CardConflictBody,
  CardholderKycNotApprovedBody,
  CardInvalidTransitionBody,
  CardNotFoundBody,
  CardNotMutableBody,
  FundingSourceIneligibleBody
} from "./CardErrorBodies.js"

const { reportFieldErrors } = FieldErrorReport
const exact = { exact: true } as const

/** The path of every single-card endpoint; a malformed id is a 400 naming `cardId`. */
export const CardPath = reportFieldErrors(Schema.Struct({ cardId: Card.CardId }))

/**
 * Query of `GET /cards`: our spec's filter names and the reference's aliases (`cardholderId` = `customerId`,
 * `state` = `status`; given both, they must agree), `accountId` (the funding source), `platformCardId`,
 * `sortOrder` (by creation, `desc` by default) and paging.
 */
export const CardListParams = reportFieldErrors(
  Schema.Struct({
    customerId: Schema.optionalWith(Customer.CustomerId, exact),
    cardholderId: Schema.optionalWith(Customer.CustomerId, exact),
    accountId: Schema.optionalWith(InternalAccount.InternalAccountId, exact),
    platformCardId: Schema.optionalWith(Schema.String, exact),
    status: Schema.optionalWith(Card.CardStatus, exact),
    state: Schema.optionalWith(Card.CardStatus, exact),
    sortOrder: Schema.optionalWith(Schema.Literal("asc", "desc"), exact),
    ...ListQuery.pageParams
  })
)

/** A new card, answered with 201 (its own schema, so that no other response of a card becomes a 201). */
const CreatedCard = Card.CardView.annotations(HttpApiSchema.annotations({ status: 201 }))

/**
 * Card management (HTTP Basic): issue a card to a customer, list, read, freeze, unfreeze, close, change its funding
 * source or limit, and issue a single-use link to the page that shows its full details.
 */
export class CardsApi extends HttpApiGroup.make("cards")
  .add(
    HttpApiEndpoint.post("create", "/cards")
      .setPayload(reportFieldErrors(CardRequest.CreateCardRequest))
      .addSuccess(CreatedCard)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .addError(CardholderKycNotApprovedBody)
      .addError(FundingSourceIneligibleBody)
      .annotate(OpenApi.Summary, "Issue a card")
      .annotate(
        OpenApi.Description,
        "Issues a virtual card in `PROCESSING` to a customer whose KYC (KYB) status is `APPROVED`, spending from one " +
          "of its active internal fiat accounts. `CARD.STATUS_CHANGE` reports activation (or the issuer's " +
          "rejection). The reference API's names are accepted beside ours: `cardholderId` for `customerId`, " +
          "`fundingSources` (one element) for `fundingSource`."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/cards")
      .setUrlParams(CardListParams)
      .addSuccess(ListQuery.ListResponse(Card.CardView, "CardListResponse"))
      .annotate(OpenApi.Summary, "List cards, newest first")
      .annotate(
        OpenApi.Description,
        "Newest first unless `sortOrder=asc`. `accountId` matches the funding source; `cardholderId` and `state` " +
          "are the reference API's names of `customerId` and `status`. Keyset pages of constant cost."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/cards/:cardId")
      .setPath(CardPath)
      .addSuccess(Card.CardView)
      .addError(CardNotFoundBody)
      .annotate(OpenApi.Summary, "Get a card")
  )
  .add(
    HttpApiEndpoint.patch("update", "/cards/:cardId")
      .setPath(CardPath)
      .setPayload(reportFieldErrors(CardRequest.UpdateCardRequest))
      .addSuccess(Card.CardView)
      .addError(CardNotFoundBody)
      .addError(CardAlreadyClosedBody)
      .addError(CardNotMutableBody)
      .addError(CardInvalidTransitionBody)
      .addError(CardConflictBody)
      .addError(FundingSourceIneligibleBody)
      .annotate(OpenApi.Summary, "Freeze, unfreeze or close a card; change its funding source or limit")
      .annotate(
        OpenApi.Description,
        "`status` (or `state`): `FROZEN` freezes, `ACTIVE` unfreezes, `CLOSED` closes for good (alone; it detaches " +
          "the funding source). `fundingSource` (or `fundingSources`, one element) moves the card to another active " +
          "internal account of the cardholder in the same currency. `maxSpendPerTransaction` sets the limit, `null` " +
          "clears it. Asking for the status the card has changes nothing. A card still `PROCESSING` cannot be " +
          "changed (409 `CARD_NOT_MUTABLE`), a closed one neither (409 `CARD_ALREADY_CLOSED`)."
      )
  )
  .add(
    HttpApiEndpoint.post("reveal", "/cards/:cardId/reveal")
      .setPath(CardPath)
      .addSuccess(CardReveal.CardRevealResponse)
      .addError(CardNotFoundBody)
      .addError(CardAlreadyClosedBody)
      .annotate(OpenApi.Summary, "Issue a link to the page showing the card's full details")
      .annotate(
        OpenApi.Description,
        "Answers `panEmbedUrl`, a single-use link valid for 5 minutes to a page that shows the full card number, " +
          "expiry and CVC (embed it in an iframe). The API itself never answers the full number or the CVC."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Cards")
  .annotate(OpenApi.Description, "Debit cards issued to customers, spending from one of their internal accounts.") {}
