import { DateTime, Effect } from "effect"
import { UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { CardId } from "./Card.js"
import { CardConflict, CardDeclined, CardTransactionStateInvalid } from "./CardErrors.js"
import * as CardHolds from "./CardHolds.js"
import type { SimulatedAdvice, SimulatedClearing } from "./CardSimulation.js"
import { CardTransaction, type StoredCardTransaction } from "./CardTransaction.js"
import * as CardTransactionRecords from "./CardTransactionRecords.js"

/**
 * Clearings and authorization advices of an authorized card transaction (docs/card-transactions.md, "Clearing").
 * Each releases the row's hold and records what replaces it in one unit of work with the row's update (compare and
 * set on its version) and its `CARD_TRANSACTION.<status>` event.
 */

const { add, amountIn, currencyOf, minor } = CardTransactionRecords

const movementOf = (
  platform: Platform.Platform,
  stored: StoredCardTransaction,
  amountMinor: bigint,
  purpose: string
): CardHolds.Movement => ({
  platformId: platform.id,
  fundingAccountId: stored.transaction.accountId,
  currency: stored.transaction.authorizedAmount.currency.code,
  direction: stored.transaction.direction,
  amountMinor,
  idempotencyKey: `${stored.transaction.id}:${purpose}:${stored.version + 1}`,
  description: `Card ${purpose} of ${stored.transaction.id}`
})

// A hold released under us means another change of the row won the race.
const releaseHold = (platform: Platform.Platform, stored: StoredCardTransaction) =>
  stored.holdPostingId === undefined
    ? Effect.void
    : CardHolds.release(platform.id, stored.holdPostingId).pipe(
        Effect.catchTag("ReservationSettled", () => CardConflict.of(stored.transaction.id))
      )

/**
 * Settles `amount` of an `AUTHORIZED` or `PARTIALLY_SETTLED` row: its hold is released, the part the hold covered is
 * posted (it cannot fail: the release just freed it), and what goes beyond is pulled after the fact: a debit the
 * funding account cannot cover leaves the row `EXCEPTION`. Less than held keeps the rest on a new hold
 * (`PARTIALLY_SETTLED`); 0 expires the authorization (`SETTLED` if something settled before, else `EXPIRED`).
 */
export const clear = Effect.fn("CardTransactions.clear")(function* (
  platform: Platform.Platform,
  cardId: CardId,
  request: SimulatedClearing
) {
  const stored = yield* CardTransactionRecords.findRow(platform.id, cardId, request.cardTransactionId)
  const current = stored.transaction
  if (current.status !== "AUTHORIZED" && current.status !== "PARTIALLY_SETTLED") {
    return yield* CardTransactionStateInvalid.of(current.id, current.status, "clearing")
  }
  const currency = currencyOf(current.authorizedAmount.currency.code)
  const amountMinor = BigInt(request.amount)
  const held = BigInt(stored.holdAmount)
  const settledBefore = minor(current.settledAmount)
  const debit = current.direction === "DEBIT"
  const token = yield* CardTransactionRecords.issuerToken
  const now = yield* DateTime.now
  return yield* (yield* UnitOfWork.UnitOfWork).transaction(
    Effect.gen(function* () {
      yield* releaseHold(platform, stored)
      const covered = amountMinor < held ? amountMinor : held
      if (covered > 0n) {
        yield* CardHolds.settle(movementOf(platform, stored, covered, "clearing")).pipe(
          Effect.catchTag("InsufficientFunds", Effect.die)
        )
      }
      const beyond = amountMinor > held ? amountMinor - held : 0n
      const pulledBeyond =
        beyond === 0n
          ? true
          : yield* CardHolds.settle(movementOf(platform, stored, beyond, "late-pull")).pipe(
              Effect.as(true),
              Effect.catchTag("InsufficientFunds", () => Effect.succeed(false))
            )
      const rest = amountMinor > 0n && amountMinor < held ? held - amountMinor : 0n
      const holdPostingId =
        rest === 0n
          ? undefined
          : yield* CardHolds.hold(movementOf(platform, stored, rest, "hold")).pipe(
              Effect.catchTag("InsufficientFunds", Effect.die)
            )
      const settled = settledBefore + amountMinor
      const status = !pulledBeyond
        ? "EXCEPTION"
        : amountMinor === 0n
          ? settledBefore > 0n
            ? "SETTLED"
            : "EXPIRED"
          : rest > 0n
            ? "PARTIALLY_SETTLED"
            : "SETTLED"
      const pull = current.pullSummary
      const transaction = new CardTransaction({
        ...current,
        issuerTransactionToken: token,
        status,
        settledAmount: amountIn(currency, settled),
        pullSummary: debit
          ? {
              count: pull.count + (beyond > 0n ? 1 : 0),
              pendingCount: pull.pendingCount,
              totalAmount: amountIn(
                currency,
                minor(pull.totalAmount) - held + covered + (pulledBeyond ? beyond : 0n) + rest
              )
            }
          : pull,
        settlementSummary:
          amountMinor > 0n ? add(current.settlementSummary, 1, amountMinor, currency) : current.settlementSummary,
        lastEventAt: now,
        updatedAt: now
      })
      yield* CardTransactionRecords.update(platform.id, stored, transaction, {
        holdPostingId,
        holdAmount: Number(rest)
      })
      return transaction
    })
  )
})

/**
 * Changes an `AUTHORIZED` row's authorized total to `amount`: the hold is released and one placed for the new total
 * (`InsufficientFunds` declines `INSUFFICIENT_FUNDS` and changes nothing).
 */
export const advise = Effect.fn("CardTransactions.advise")(function* (
  platform: Platform.Platform,
  cardId: CardId,
  request: SimulatedAdvice
) {
  const stored = yield* CardTransactionRecords.findRow(platform.id, cardId, request.cardTransactionId)
  const current = stored.transaction
  if (current.status !== "AUTHORIZED") {
    return yield* CardTransactionStateInvalid.of(current.id, current.status, "authorization_advice")
  }
  const currency = currencyOf(current.authorizedAmount.currency.code)
  const total = BigInt(request.amount)
  const rest = total - minor(current.settledAmount)
  const held = BigInt(stored.holdAmount)
  const token = yield* CardTransactionRecords.issuerToken
  const now = yield* DateTime.now
  return yield* (yield* UnitOfWork.UnitOfWork).transaction(
    Effect.gen(function* () {
      yield* releaseHold(platform, stored)
      const holdPostingId =
        rest > 0n
          ? yield* CardHolds.hold(movementOf(platform, stored, rest, "advice")).pipe(
              Effect.catchTag("InsufficientFunds", () => CardDeclined.of("INSUFFICIENT_FUNDS", current.cardId, token))
            )
          : undefined
      const kept = rest > 0n ? rest : 0n
      const pull = current.pullSummary
      const transaction = new CardTransaction({
        ...current,
        issuerTransactionToken: token,
        authorizedAmount: amountIn(currency, total),
        pullSummary:
          current.direction === "DEBIT"
            ? { ...pull, totalAmount: amountIn(currency, minor(pull.totalAmount) - held + kept) }
            : pull,
        lastEventAt: now,
        updatedAt: now
      })
      yield* CardTransactionRecords.update(platform.id, stored, transaction, {
        holdPostingId,
        holdAmount: Number(kept)
      })
      return transaction
    })
  )
})
