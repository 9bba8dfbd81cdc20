import { DateTime, Effect, Option, Schema } from "effect"
import { Customer, CustomerRepo } from "../customers/index.js"
import { Jobs } from "../events/index.js"
import { Ids, InvalidInput, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { Card, CardId } from "./Card.js"
import { CardDeclined, type DeclineReason } from "./CardErrors.js"
import * as CardHolds from "./CardHolds.js"
import * as CardPullJob from "./CardPullJob.js"
import type { AuthorizationKind, SimulatedAuthorization, SimulatedBalanceInquiry } from "./CardSimulation.js"
import { CardTransaction, CardTransactionId } from "./CardTransaction.js"
import * as CardTransactionRecords from "./CardTransactionRecords.js"
import * as SandboxCardNetwork from "./SandboxCardNetwork.js"

/**
 * New card transactions (docs/card-transactions.md, "Authorizations"): the five authorization messages of the card
 * network, and the balance inquiry. A decline fails `CardDeclined` and records nothing.
 */

const { amountIn, currencyOf } = CardTransactionRecords

const decodeCustomerId = Schema.decodeUnknownOption(Customer.CustomerId)

/** Whether a message of `kind` credits the funding account. */
export const isCredit = (kind: AuthorizationKind): boolean =>
  kind === "CREDIT_AUTHORIZATION" || kind === "FINANCIAL_CREDIT_AUTHORIZATION" || kind === "CREDIT_AUTHORIZATION_ADVICE"

/** Whether a message of `kind` settles at once (a posted movement, the row `SETTLED`). */
export const isFinancial = (kind: AuthorizationKind): boolean =>
  kind === "FINANCIAL_AUTHORIZATION" || kind === "FINANCIAL_CREDIT_AUTHORIZATION"

/** The decline a card's status forces: a frozen card is paused; one provisioning or closed is not active. */
export const statusDecline = (card: Card): Option.Option<DeclineReason> =>
  card.status === "ACTIVE" ? Option.none() : Option.some(card.status === "FROZEN" ? "CARD_PAUSED" : "CARD_NOT_ACTIVE")

/**
 * The decline of a message of `kind` for `amountMinor` on `card`, before the ledger is asked: the card's status
 * (except for `CREDIT_AUTHORIZATION_ADVICE`, never declined), a card with no funding source (closed), and for debits
 * `maxSpendPerTransaction` (exactly the limit passes) and the sandbox's descriptor magic (`002`, `003`).
 */
export const declineOf = (
  card: Card,
  kind: AuthorizationKind,
  amountMinor: number,
  descriptor: string
): Option.Option<DeclineReason> => {
  if (kind !== "CREDIT_AUTHORIZATION_ADVICE" && Option.isSome(statusDecline(card))) return statusDecline(card)
  if (card.fundingSource === undefined) return Option.some("CARD_NOT_ACTIVE")
  if (isCredit(kind)) return Option.none()
  if (card.maxSpendPerTransaction !== undefined && amountMinor > card.maxSpendPerTransaction) {
    return Option.some("TRANSACTION_SIZE_LIMIT_EXCEEDED")
  }
  return SandboxCardNetwork.forcedDecline(descriptor)
}

/**
 * Whether the card's holder was deleted: a deleted customer's card spends nothing more (its debits decline
 * `CARD_NOT_ACTIVE`); credits, clearings and refunds of what it spent before still settle.
 */
const cardholderDeleted = (platform: Platform.Platform, card: Card) =>
  Effect.gen(function* () {
    const customerId = decodeCustomerId(card.customerId)
    if (Option.isNone(customerId)) return false
    const found = yield* (yield* CustomerRepo.CustomerRepo).findById(platform.id, customerId.value)
    return Option.isSome(found) && found.value.customer.isDeleted
  })

/**
 * A new card transaction of `kind` (see `CardTransactions.authorize`). An `AUTHORIZATION` holds its amount (a
 * pending posting; `InsufficientFunds` declines `INSUFFICIENT_FUNDS`); with descriptor `005` its pull stays pending
 * until `CardPullJob` confirms it; with `006` the pull fails at once: the row is `EXCEPTION` and the hold released in
 * the same unit of work.
 */
export const authorize = Effect.fn("CardTransactions.authorize")(function* (
  platform: Platform.Platform,
  cardId: CardId,
  kind: AuthorizationKind,
  request: SimulatedAuthorization
) {
  const card = (yield* CardTransactionRecords.findCard(platform.id, cardId)).card
  const token = yield* CardTransactionRecords.issuerToken
  if (request.currency.code !== card.currency) {
    return yield* InvalidInput.InvalidInput.onField("currency.code", `The card's currency is ${card.currency}`)
  }
  const decline = declineOf(card, kind, request.amount, request.merchant.descriptor)
  if (Option.isNone(decline) && !isCredit(kind) && (yield* cardholderDeleted(platform, card))) {
    return yield* CardDeclined.of("CARD_NOT_ACTIVE", card.id, token)
  }
  if (Option.isSome(decline) || card.fundingSource === undefined) {
    return yield* CardDeclined.of(
      Option.getOrElse(decline, () => "CARD_NOT_ACTIVE" as const),
      card.id,
      token
    )
  }
  const fundingAccountId = card.fundingSource
  const magic =
    kind === "AUTHORIZATION"
      ? SandboxCardNetwork.authorizationMagic(request.merchant.descriptor)
      : ({ _tag: "Approve" } as const)
  const currency = currencyOf(card.currency)
  const amountMinor = BigInt(request.amount)
  const credit = isCredit(kind)
  const financial = isFinancial(kind)
  const id = CardTransactionId.make(`CardTransaction:${yield* (yield* Ids.Ids).uuid}`)
  const now = yield* DateTime.now
  const movement: CardHolds.Movement = {
    platformId: platform.id,
    fundingAccountId,
    currency: card.currency,
    direction: credit ? "CREDIT" : "DEBIT",
    amountMinor,
    idempotencyKey: `${id}:authorization`,
    description: `Card ${credit ? "credit" : "purchase"} ${id} at ${request.merchant.descriptor}`
  }
  const zero = amountIn(currency, 0n)
  const pullFails = magic._tag === "PullFails"
  const pulled = credit || pullFails ? 0n : amountMinor
  return yield* (yield* UnitOfWork.UnitOfWork).transaction(
    Effect.gen(function* () {
      const placed = yield* (financial ? CardHolds.settle(movement) : CardHolds.hold(movement)).pipe(
        Effect.catchTag("InsufficientFunds", () => CardDeclined.of("INSUFFICIENT_FUNDS", card.id, token))
      )
      if (pullFails) yield* Effect.orDie(CardHolds.release(platform.id, placed))
      const held = !financial && !pullFails
      const transaction = new CardTransaction({
        id,
        type: "CARD",
        kind,
        cardId: card.id,
        customerId: card.customerId,
        ...(card.platformCustomerId === undefined ? {} : { platformCustomerId: card.platformCustomerId }),
        issuerTransactionToken: token,
        status: pullFails ? "EXCEPTION" : financial ? "SETTLED" : "AUTHORIZED",
        direction: credit ? "CREDIT" : "DEBIT",
        merchant: request.merchant,
        accountId: fundingAccountId,
        authorizedAmount: amountIn(currency, amountMinor),
        settledAmount: financial ? amountIn(currency, amountMinor) : zero,
        ...(credit ? {} : { refundedAmount: zero, refundSummary: { count: 0, totalAmount: zero } }),
        pullSummary: {
          count: credit ? 0 : 1,
          totalAmount: amountIn(currency, pulled),
          pendingCount: magic._tag === "DelayedPull" ? 1 : 0
        },
        settlementSummary: financial
          ? { count: 1, totalAmount: amountIn(currency, amountMinor) }
          : { count: 0, totalAmount: zero },
        authorizedAt: now,
        lastEventAt: now,
        createdAt: now,
        updatedAt: now
      })
      yield* CardTransactionRecords.insert(platform.id, {
        platformId: platform.id,
        transaction,
        version: 1,
        holdPostingId: held ? placed : undefined,
        holdAmount: held ? request.amount : 0
      })
      if (magic._tag === "DelayedPull") {
        yield* (yield* Jobs.Jobs).enqueue(CardPullJob.newJob(platform.id, id, DateTime.addDuration(now, magic.delay)))
      }
      return transaction
    })
  )
})

/**
 * The funding account's available balance, for a card that would be authorized now (its status declines as an
 * authorization's would). Records nothing.
 */
export const balanceInquiry = Effect.fn("CardTransactions.balanceInquiry")(function* (
  platform: Platform.Platform,
  cardId: CardId,
  _request: SimulatedBalanceInquiry
) {
  const card = (yield* CardTransactionRecords.findCard(platform.id, cardId)).card
  const token = yield* CardTransactionRecords.issuerToken
  const decline = statusDecline(card)
  if (Option.isSome(decline) || card.fundingSource === undefined) {
    return yield* CardDeclined.of(
      Option.getOrElse(decline, () => "CARD_NOT_ACTIVE" as const),
      card.id,
      token
    )
  }
  const available = yield* CardHolds.available(platform.id, card.fundingSource)
  return {
    issuerTransactionToken: token,
    cardId: card.id,
    availableBalance: amountIn(currencyOf(card.currency), available)
  }
})
