import { DateTime, Effect, Option } from "effect"
import { Ids, type Page, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { CardId } from "./Card.js"
import { CardDeclined, CardTransactionStateInvalid } from "./CardErrors.js"
import * as CardHolds from "./CardHolds.js"
import type { SimulatedReturn, SimulatedReturnReversal } from "./CardSimulation.js"
import { CardTransaction, CardTransactionId, type StoredCardTransaction } from "./CardTransaction.js"
import { CardTransactionRepo } from "./CardTransactionRepo.js"
import * as CardTransactionRecords from "./CardTransactionRecords.js"

/**
 * Merchant refunds of card purchases and their reversals (docs/card-transactions.md, "Refunds"). A refund is its own
 * dated `CREDIT` row (kind `RETURN`, `originalTransactionId` the purchase) and the purchase rolls it up
 * (`refundedAmount`, `refundSummary`, `REFUNDED` once a `SETTLED` purchase is refunded in full).
 */

const { add, amountIn, currencyOf, minor } = CardTransactionRecords

const movementOf = (
  platform: Platform.Platform,
  purchase: CardTransaction,
  direction: CardHolds.Direction,
  amountMinor: bigint,
  idempotencyKey: string
): CardHolds.Movement => ({
  platformId: platform.id,
  fundingAccountId: purchase.accountId,
  currency: purchase.authorizedAmount.currency.code,
  direction,
  amountMinor,
  idempotencyKey,
  description: `Card ${direction === "CREDIT" ? "refund" : "refund reversal"} of ${purchase.id}`
})

/**
 * Refunds `amount` of a `SETTLED` or `PARTIALLY_SETTLED` `DEBIT` purchase, at most what is settled and not refunded
 * (else `CardTransactionStateInvalid`): a posted credit of the funding account, the new `CREDIT` row and the
 * purchase's roll-up in one unit of work, each with its event. Answers the new row. Refunds of a closed card's
 * purchases still settle.
 */
export const refund = Effect.fn("CardTransactions.refund")(function* (
  platform: Platform.Platform,
  cardId: CardId,
  request: SimulatedReturn
) {
  const stored = yield* CardTransactionRecords.findRow(platform.id, cardId, request.cardTransactionId)
  const purchase = stored.transaction
  if (purchase.direction !== "DEBIT" || (purchase.status !== "SETTLED" && purchase.status !== "PARTIALLY_SETTLED")) {
    return yield* CardTransactionStateInvalid.of(purchase.id, purchase.status, "return")
  }
  const currency = currencyOf(purchase.authorizedAmount.currency.code)
  const amountMinor = BigInt(request.amount)
  const settled = minor(purchase.settledAmount)
  const refunded = purchase.refundedAmount === undefined ? 0n : minor(purchase.refundedAmount)
  if (amountMinor > settled - refunded) {
    return yield* CardTransactionStateInvalid.of(
      purchase.id,
      purchase.status,
      "return",
      `A return is at most what is settled and not refunded yet (${settled - refunded} minor units)`
    )
  }
  const id = CardTransactionId.make(`CardTransaction:${yield* (yield* Ids.Ids).uuid}`)
  const token = yield* CardTransactionRecords.issuerToken
  const now = yield* DateTime.now
  const refundRow = new CardTransaction({
    id,
    type: "CARD",
    kind: "RETURN",
    cardId: purchase.cardId,
    customerId: purchase.customerId,
    ...(purchase.platformCustomerId === undefined ? {} : { platformCustomerId: purchase.platformCustomerId }),
    issuerTransactionToken: token,
    status: "SETTLED",
    direction: "CREDIT",
    merchant: purchase.merchant,
    accountId: purchase.accountId,
    authorizedAmount: amountIn(currency, amountMinor),
    settledAmount: amountIn(currency, amountMinor),
    originalTransactionId: purchase.id,
    pullSummary: { count: 0, totalAmount: amountIn(currency, 0n), pendingCount: 0 },
    settlementSummary: { count: 1, totalAmount: amountIn(currency, amountMinor) },
    authorizedAt: now,
    lastEventAt: now,
    createdAt: now,
    updatedAt: now
  })
  const refundedNow = refunded + amountMinor
  const rolledUp = new CardTransaction({
    ...purchase,
    status: purchase.status === "SETTLED" && refundedNow === settled ? "REFUNDED" : purchase.status,
    refundedAmount: amountIn(currency, refundedNow),
    refundSummary: add(purchase.refundSummary, 1, amountMinor, currency),
    lastEventAt: now,
    updatedAt: now
  })
  return yield* (yield* UnitOfWork.UnitOfWork).transaction(
    Effect.gen(function* () {
      yield* CardHolds.settle(movementOf(platform, purchase, "CREDIT", amountMinor, `${id}:refund`)).pipe(
        Effect.catchTag("InsufficientFunds", Effect.die)
      )
      yield* CardTransactionRecords.insert(platform.id, {
        platformId: platform.id,
        transaction: refundRow,
        version: 1,
        holdPostingId: undefined,
        holdAmount: 0
      })
      yield* CardTransactionRecords.update(platform.id, stored, rolledUp, stored)
      return refundRow
    })
  )
})

// The newest refund row of the purchase: the card's rows newest first, a page at a time.
const latestRefund = (
  platform: Platform.Platform,
  purchase: CardTransaction
): Effect.Effect<Option.Option<CardTransaction>, StoreFailure.StoreFailure, CardTransactionRepo> =>
  Effect.gen(function* () {
    const rows = yield* CardTransactionRepo
    let after: Page.PageRequest["after"] = Option.none()
    for (;;) {
      const page = yield* rows.list(platform.id, { cardId: purchase.cardId, sortOrder: "desc" }, { limit: 100, after })
      const found = page.data.find((row) => row.kind === "RETURN" && row.originalTransactionId === purchase.id)
      if (found !== undefined) return Option.some(found)
      const last = page.data[page.data.length - 1]
      if (!page.hasMore || last === undefined) return Option.none()
      after = Option.some({ createdAt: last.createdAt, id: last.id })
    }
  })

/**
 * Undoes the latest refund of a `REFUNDED` purchase: a posted debit of the funding account (`InsufficientFunds`
 * declines `INSUFFICIENT_FUNDS` and changes nothing); the purchase is `SETTLED` again with the refund taken out of
 * its roll-up. The refund's own row stays as it was, as history. Answers the purchase.
 */
export const reverseRefund = Effect.fn("CardTransactions.reverseRefund")(function* (
  platform: Platform.Platform,
  cardId: CardId,
  request: SimulatedReturnReversal
) {
  const stored: StoredCardTransaction = yield* CardTransactionRecords.findRow(
    platform.id,
    cardId,
    request.cardTransactionId
  )
  const purchase = stored.transaction
  if (purchase.status !== "REFUNDED") {
    return yield* CardTransactionStateInvalid.of(purchase.id, purchase.status, "return_reversal")
  }
  const latest = yield* latestRefund(platform, purchase)
  if (Option.isNone(latest)) return yield* Effect.dieMessage(`no refund row of the refunded ${purchase.id}`)
  const currency = currencyOf(purchase.authorizedAmount.currency.code)
  const amountMinor = minor(latest.value.settledAmount)
  const refunded = purchase.refundedAmount === undefined ? 0n : minor(purchase.refundedAmount)
  const token = yield* CardTransactionRecords.issuerToken
  const now = yield* DateTime.now
  const reversed = new CardTransaction({
    ...purchase,
    status: "SETTLED",
    refundedAmount: amountIn(currency, refunded - amountMinor),
    refundSummary: add(purchase.refundSummary, -1, -amountMinor, currency),
    lastEventAt: now,
    updatedAt: now
  })
  return yield* (yield* UnitOfWork.UnitOfWork).transaction(
    Effect.gen(function* () {
      yield* CardHolds.settle(
        movementOf(platform, purchase, "DEBIT", amountMinor, `${purchase.id}:refund-reversal:${stored.version + 1}`)
      ).pipe(Effect.catchTag("InsufficientFunds", () => CardDeclined.of("INSUFFICIENT_FUNDS", purchase.cardId, token)))
      yield* CardTransactionRecords.update(platform.id, stored, reversed, stored)
      return reversed
    })
  )
})
