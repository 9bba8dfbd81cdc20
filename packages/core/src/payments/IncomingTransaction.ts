import { type DateTime, Option } from "effect"
import { Currency, Money, ResourceId } from "../kernel/index.js"
import {
  type FailureReason,
  Transaction,
  TransactionId,
  type TransactionSource,
  type TransactionStatus
} from "./Transaction.js"

/** Where an incoming payment's money lands: an internal account (credited) or an external one (paid out to). */
export interface Deposit {
  readonly accountId: string
  readonly currency: string
}

/** What an incoming payment's record is made of. */
export interface IncomingPayment {
  /** The uuid of the new `Transaction:<uuid>`. */
  readonly uuid: string
  readonly status: TransactionStatus
  readonly source: TransactionSource
  readonly deposit: Deposit
  /** The receiving customer, or the platform's id for the platform's own accounts (the reference's convention). */
  readonly customerId: string
  readonly platformCustomerId: Option.Option<string>
  readonly amountMinor: bigint
  readonly description: string
  readonly failureReason: Option.Option<FailureReason>
  readonly now: DateTime.Utc
}

const currencyOf = (code: string) =>
  Option.getOrThrowWith(Currency.find(code), () => new Error(`unknown currency ${code}`))

/**
 * The `INCOMING` transaction of money arriving from outside (sandbox funding, an UMA payment): direction `CREDIT`,
 * `receivedAmount` the amount in the deposit's currency, no fees and no quote. A `COMPLETED` one is settled at
 * `now`; a `FAILED` one carries its `failureReason`.
 */
export const make = (payment: IncomingPayment): Transaction =>
  new Transaction({
    id: TransactionId.make(ResourceId.format("Transaction", payment.uuid)),
    status: payment.status,
    type: "INCOMING",
    direction: "CREDIT",
    source: payment.source,
    destination: {
      destinationType: "ACCOUNT",
      accountId: payment.deposit.accountId,
      currency: payment.deposit.currency
    },
    customerId: payment.customerId,
    ...Option.match(payment.platformCustomerId, { onNone: () => ({}), onSome: (id) => ({ platformCustomerId: id }) }),
    receivedAmount: { amount: Money.toWire(payment.amountMinor), currency: currencyOf(payment.deposit.currency) },
    description: payment.description,
    ...Option.match(payment.failureReason, { onNone: () => ({}), onSome: (reason) => ({ failureReason: reason }) }),
    ...(payment.status === "COMPLETED" ? { settledAt: payment.now } : {}),
    createdAt: payment.now,
    updatedAt: payment.now
  })

/** `transaction` completed at `now`: status `COMPLETED`, settled then. */
export const completed = (transaction: Transaction, now: DateTime.Utc): Transaction =>
  new Transaction({ ...transaction, status: "COMPLETED", settledAt: now, updatedAt: now }, { disableValidation: true })
