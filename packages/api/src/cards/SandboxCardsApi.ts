import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Card, CardSimulation, CardTransaction, Errors, Ledger } from "@payrail/core"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import {
  CardConflictBody,
  CardDeclinedBody,
  CardNotFoundBody,
  CardTransactionNotFoundBody,
  CardTransactionStateInvalidBody
} from "./CardErrorBodies.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/** 409 `CONFLICT`: a credit would take the funding account past the largest balance. */
export const CardBalanceLimitBody = wire(
  Ledger.BalanceLimitExceeded,
  409,
  "The funding account's balance would exceed 9007199254740991 minor units"
)
/** 403 `FORBIDDEN`: the card simulators exist on sandbox platforms only. */
export const SandboxOnlyBody = wire(Errors.SandboxOnly, 403, "Only sandbox platforms simulate the card network")

const CardPath = reportFieldErrors(Schema.Struct({ cardId: Card.CardId }))

const strict = { parseOptions: { errors: "all", onExcessProperty: "error" } } as const

/** The simulators' bodies, as the API decodes them (every invalid field reported, unknown fields refused). */
export const AuthorizationBody = reportFieldErrors(CardSimulation.SimulatedAuthorization.annotations(strict))
export const ClearingBody = reportFieldErrors(CardSimulation.SimulatedClearing.annotations(strict))
export const ReturnBody = reportFieldErrors(CardSimulation.SimulatedReturn.annotations(strict))
export const ReturnReversalBody = reportFieldErrors(CardSimulation.SimulatedReturnReversal.annotations(strict))
export const AdviceBody = reportFieldErrors(CardSimulation.SimulatedAdvice.annotations(strict))
export const BalanceInquiryBody = reportFieldErrors(CardSimulation.SimulatedBalanceInquiry.annotations(strict))

const simulator = <Name extends string>(name: Name) =>
  HttpApiEndpoint.post(name, `/sandbox/cards/:cardId/simulate/${name}`)
    .setPath(CardPath)
    .addError(CardNotFoundBody)
    .addError(SandboxOnlyBody)
    .addError(CardConflictBody)
    .addError(CardBalanceLimitBody)

const creating = <Name extends string>(name: Name, summary: string, description: string) =>
  simulator(name)
    .setPayload(AuthorizationBody)
    .addSuccess(CardTransaction.CardTransaction)
    .addError(CardDeclinedBody)
    .annotate(OpenApi.Summary, summary)
    .annotate(OpenApi.Description, description)

const onTransaction = <Name extends string>(name: Name) =>
  simulator(name)
    .addSuccess(CardTransaction.CardTransaction)
    .addError(CardTransactionNotFoundBody)
    .addError(CardTransactionStateInvalidBody)

/**
 * The sandbox card network (`POST /sandbox/cards/{cardId}/simulate/<message>`): each simulator sends one network
 * message for the card and answers the card transaction it created or changed (docs/card-transactions.md).
 */
export class SandboxCardsApi extends HttpApiGroup.make("sandboxCards")
  .add(
    creating(
      "authorization",
      "Sandbox: simulate a card authorization",
      "A purchase authorization: the card must be ACTIVE (FROZEN declines `CARD_PAUSED`; PROCESSING or CLOSED `CARD_NOT_ACTIVE`), the currency the card's, the amount at most `maxSpendPerTransaction` (`TRANSACTION_SIZE_LIMIT_EXCEEDED`). The amount is held on the funding account (`INSUFFICIENT_FUNDS` when its available balance is short). Descriptor suffixes: `002` declines INSUFFICIENT_FUNDS, `003` CARD_PAUSED, `005` keeps the pull pending about 30 s, `006` fails the pull (`EXCEPTION`). Answers the `AUTHORIZED` transaction."
    )
  )
  .add(
    creating(
      "financial_authorization",
      "Sandbox: simulate a financial authorization",
      "Authorization and clearing in one message: declines as an authorization; answers the `SETTLED` DEBIT transaction."
    )
  )
  .add(
    creating(
      "credit_authorization",
      "Sandbox: simulate a credit authorization",
      "A credit to the card, pending until a clearing: a CREDIT transaction `AUTHORIZED` (a frozen or inactive card declines)."
    )
  )
  .add(
    creating(
      "financial_credit_authorization",
      "Sandbox: simulate a financial credit authorization",
      "A credit settled at once: a CREDIT transaction `SETTLED` (a frozen or inactive card declines)."
    )
  )
  .add(
    creating(
      "credit_authorization_advice",
      "Sandbox: simulate a credit authorization advice",
      "Like `credit_authorization`, but an advice is never declined (a closed card has no funding source: `CARD_NOT_ACTIVE`)."
    )
  )
  .add(
    onTransaction("clearing")
      .setPayload(ClearingBody)
      .annotate(OpenApi.Summary, "Sandbox: simulate a clearing")
      .annotate(
        OpenApi.Description,
        "Settles `amount` of an `AUTHORIZED` or `PARTIALLY_SETTLED` transaction: equal to the hold settles it, below leaves it `PARTIALLY_SETTLED` with the rest held, above pulls the difference afterwards (`EXCEPTION` when the funding account cannot cover it), 0 expires it (`EXPIRED`, or `SETTLED` if part had settled). Answers the transaction."
      )
  )
  .add(
    onTransaction("return")
      .setPayload(ReturnBody)
      .annotate(OpenApi.Summary, "Sandbox: simulate a merchant refund")
      .annotate(
        OpenApi.Description,
        "Refunds `amount` (at most settled minus refunded) of a `SETTLED` or `PARTIALLY_SETTLED` purchase: a new CREDIT transaction (kind `RETURN`, `originalTransactionId` the purchase) credits the funding account; the purchase rolls it up and becomes `REFUNDED` when fully refunded. Answers the new transaction."
      )
  )
  .add(
    onTransaction("return_reversal")
      .setPayload(ReturnReversalBody)
      .addError(CardDeclinedBody)
      .annotate(OpenApi.Summary, "Sandbox: simulate a refund reversal")
      .annotate(
        OpenApi.Description,
        "Undoes the latest refund of a `REFUNDED` purchase (the funding account is debited again; `INSUFFICIENT_FUNDS` declines). The purchase is `SETTLED` again; the refund's row stays as history. Answers the purchase."
      )
  )
  .add(
    onTransaction("authorization_advice")
      .setPayload(AdviceBody)
      .addError(CardDeclinedBody)
      .annotate(OpenApi.Summary, "Sandbox: simulate an authorization advice")
      .annotate(
        OpenApi.Description,
        "Changes an `AUTHORIZED` transaction's authorized total to `amount`: the hold moves to the new total (`INSUFFICIENT_FUNDS` declines and changes nothing). Answers the transaction."
      )
  )
  .add(
    simulator("balance_inquiry")
      .setPayload(BalanceInquiryBody)
      .addSuccess(CardSimulation.BalanceInquiryResult)
      .addError(CardDeclinedBody)
      .annotate(OpenApi.Summary, "Sandbox: simulate a balance inquiry")
      .annotate(
        OpenApi.Description,
        "The funding account's available balance, for a card that would be authorized now (declines as an authorization). Records nothing."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Sandbox cards")
  .annotate(
    OpenApi.Description,
    "The sandbox card network: authorizations, clearings, refunds and the other network messages of a card."
  ) {}
