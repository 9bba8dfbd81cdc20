import { Schema } from "effect"
import { Money } from "../kernel/index.js"
import { amountMax } from "./CardRequest.js"
import { CardTransactionId, Merchant } from "./CardTransaction.js"

/**
 * The bodies of the sandbox card simulators (`POST /sandbox/cards/{cardId}/simulate/...`), in the reference API's
 * shapes. Amounts are minor units of the card's currency.
 */

const PositiveAmount = Schema.Int.pipe(Schema.between(1, amountMax))
const Amount = Schema.Int.pipe(Schema.between(0, amountMax))

/**
 * `authorization`, `financial_authorization`, `credit_authorization`, `financial_credit_authorization`,
 * `credit_authorization_advice`: a new card transaction.
 */
export const SimulatedAuthorization = Schema.Struct({
  amount: PositiveAmount,
  currency: Schema.Struct({ code: Schema.String }),
  merchant: Merchant
}).annotations({ identifier: "SimulatedCardAuthorization" })
export type SimulatedAuthorization = typeof SimulatedAuthorization.Type

/** `clearing`: `amount` 0 expires what is still authorized; more than authorized pulls the difference afterwards. */
export const SimulatedClearing = Schema.Struct({
  cardTransactionId: CardTransactionId,
  amount: Amount
}).annotations({ identifier: "SimulatedCardClearing" })
export type SimulatedClearing = typeof SimulatedClearing.Type

/** `return` (a merchant refund, at most what is settled and not refunded yet). */
export const SimulatedReturn = Schema.Struct({
  cardTransactionId: CardTransactionId,
  amount: PositiveAmount
}).annotations({ identifier: "SimulatedCardReturn" })
export type SimulatedReturn = typeof SimulatedReturn.Type

/** `authorization_advice`: the authorization's new total. */
export const SimulatedAdvice = Schema.Struct({
  cardTransactionId: CardTransactionId,
  amount: PositiveAmount
}).annotations({ identifier: "SimulatedCardAuthorizationAdvice" })
export type SimulatedAdvice = typeof SimulatedAdvice.Type

/** `return_reversal`: undoes the purchase's latest refund (the purchase must be `REFUNDED`). */
export const SimulatedReturnReversal = Schema.Struct({
  cardTransactionId: CardTransactionId
}).annotations({ identifier: "SimulatedCardReturnReversal" })
export type SimulatedReturnReversal = typeof SimulatedReturnReversal.Type

/** `balance_inquiry`. */
export const SimulatedBalanceInquiry = Schema.Struct({
  merchant: Merchant
}).annotations({ identifier: "SimulatedCardBalanceInquiry" })
export type SimulatedBalanceInquiry = typeof SimulatedBalanceInquiry.Type

/** What `balance_inquiry` answers: the network's token and the funding source's available balance. */
export const BalanceInquiryResult = Schema.Struct({
  issuerTransactionToken: Schema.String,
  cardId: Schema.String,
  availableBalance: Money.CurrencyAmount
}).annotations({ identifier: "CardBalanceInquiry" })
export type BalanceInquiryResult = typeof BalanceInquiryResult.Type

/** The simulators that create a card transaction, by the kind of row they create. */
export const AuthorizationKind = Schema.Literal(
  "AUTHORIZATION",
  "FINANCIAL_AUTHORIZATION",
  "CREDIT_AUTHORIZATION",
  "FINANCIAL_CREDIT_AUTHORIZATION",
  "CREDIT_AUTHORIZATION_ADVICE"
)
export type AuthorizationKind = typeof AuthorizationKind.Type
