import { CardErrors, CardState } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

/**
 * The wire forms of the cards context's refusals, each with its HTTP status, for every cards operation (management,
 * the sandbox card simulators, card transactions).
 */

const { wire } = ErrorBody

/** 404 `NOT_FOUND`: no card with this id on the platform. */
export const CardNotFoundBody = wire(CardErrors.CardNotFound, 404, "No such card on this platform")

/** 400 `CARDHOLDER_KYC_NOT_APPROVED`: the customer's KYC (or KYB) status is not `APPROVED` (`details.kycStatus`). */
export const CardholderKycNotApprovedBody = wire(
  CardErrors.CardholderKycNotApproved,
  400,
  "A card is issued only to a customer whose KYC (or KYB) status is APPROVED"
)

/** 400 `FUNDING_SOURCE_INELIGIBLE`: the internal account cannot fund the card (`details.rule` says why). */
export const FundingSourceIneligibleBody = wire(
  CardErrors.FundingSourceIneligible,
  400,
  "The funding source cannot fund this card (`details.rule`)"
)

/** 409 `CARD_ALREADY_CLOSED`: a closed card changes no more. */
export const CardAlreadyClosedBody = wire(CardErrors.CardAlreadyClosed, 409, "The card is closed")

/** 409 `CARD_NOT_MUTABLE`: the card is still `PROCESSING`. */
export const CardNotMutableBody = wire(
  CardErrors.CardNotMutable,
  409,
  "The card is still being provisioned and cannot be changed yet"
)

/** 409 `CONFLICT`: a concurrent change to the same record won; retry with its current state. */
export const CardConflictBody = wire(CardErrors.CardConflict, 409, "The record changed concurrently; retry")

/** 409 `INVALID_STATE_TRANSITION`: the card's state machine refuses the change. */
export const CardInvalidTransitionBody = wire(
  CardState.InvalidTransition,
  409,
  "The card's status does not allow this change"
)

/** 400 with the decline reason as `code` (`INSUFFICIENT_FUNDS`, `CARD_PAUSED`, ...): nothing was recorded. */
export const CardDeclinedBody = wire(
  CardErrors.CardDeclined,
  400,
  "The card network declined the authorization; `code` is the decline reason and no transaction was recorded"
)

/** 404 `TRANSACTION_NOT_FOUND`: no such card transaction on the card. */
export const CardTransactionNotFoundBody = wire(
  CardErrors.CardTransactionNotFound,
  404,
  "No such card transaction on this card"
)

/** 409 `INVALID_STATE_TRANSITION`: the card transaction's status does not take this network event. */
export const CardTransactionStateInvalidBody = wire(
  CardErrors.CardTransactionStateInvalid,
  409,
  "The card transaction's status does not take this network event"
)
