import { Effect, Encoding, Option } from "effect"
import { Currency, Ids, Money, Outbox, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { CardId, StoredCard } from "./Card.js"
import { CardConflict, CardNotFound, CardTransactionNotFound } from "./CardErrors.js"
import * as CardEvents from "./CardEvents.js"
import { CardRepo } from "./CardRepo.js"
import type { CardTransaction, CardTransactionId, StoredCardTransaction, Summary } from "./CardTransaction.js"
import { CardTransactionRepo } from "./CardTransactionRepo.js"

/**
 * Reading and writing card transaction rows for the card transaction use cases: each write carries its
 * `CARD_TRANSACTION.<status>` event, and an update applies only over the version it was decided on.
 */

/** A fresh `issuerTransactionToken`: `itt_` and 32 hex digits, one per network message. */
export const issuerToken: Effect.Effect<string, never, Ids.Ids> = Effect.map(
  Effect.flatMap(Ids.Ids, (ids) => ids.randomBytes(16)),
  (bytes) => `itt_${Encoding.encodeHex(bytes)}`
)

/** The card `cardId` of the platform, or `CardNotFound`. */
export const findCard = (
  platformId: Platform.PlatformId,
  cardId: CardId
): Effect.Effect<StoredCard, CardNotFound | StoreFailure.StoreFailure, CardRepo> =>
  Effect.flatMap(CardRepo, (cards) => cards.findById(platformId, cardId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(CardNotFound.of(cardId)), onSome: Effect.succeed }))
  )

/** The card transaction `id` of the platform on the card `cardId`, or `CardTransactionNotFound`. */
export const findRow = (
  platformId: Platform.PlatformId,
  cardId: CardId | undefined,
  id: CardTransactionId
): Effect.Effect<StoredCardTransaction, CardTransactionNotFound | StoreFailure.StoreFailure, CardTransactionRepo> =>
  Effect.flatMap(CardTransactionRepo, (rows) => rows.findById(platformId, id)).pipe(
    Effect.flatMap((found) =>
      Option.isSome(found) && (cardId === undefined || found.value.transaction.cardId === cardId)
        ? Effect.succeed(found.value)
        : Effect.fail(CardTransactionNotFound.of(id))
    )
  )

/** Stores a new row and its event (call it inside the unit of work of its postings). */
export const insert = (
  platformId: Platform.PlatformId,
  stored: StoredCardTransaction
): Effect.Effect<void, StoreFailure.StoreFailure, CardTransactionRepo | Outbox.Outbox | Ids.Ids> =>
  Effect.gen(function* () {
    yield* (yield* CardTransactionRepo).insert(stored)
    yield* (yield* Outbox.Outbox).append(yield* CardEvents.ofTransaction(platformId, stored.transaction))
  })

/** The ledger side of a row after a change: the hold it keeps, if any. */
export interface Hold {
  readonly holdPostingId?: string | undefined
  readonly holdAmount: number
}

/**
 * Stores `transaction` over `current` (compare and set on its version; `CardConflict` when another change won) with
 * its event. Answers the stored row.
 */
export const update = (
  platformId: Platform.PlatformId,
  current: StoredCardTransaction,
  transaction: CardTransaction,
  hold: Hold
): Effect.Effect<
  StoredCardTransaction,
  CardConflict | StoreFailure.StoreFailure,
  CardTransactionRepo | Outbox.Outbox | Ids.Ids
> =>
  Effect.gen(function* () {
    const next: StoredCardTransaction = {
      platformId: current.platformId,
      transaction,
      version: current.version + 1,
      holdPostingId: hold.holdPostingId,
      holdAmount: hold.holdAmount
    }
    if (!(yield* (yield* CardTransactionRepo).update(next, current.version))) {
      return yield* CardConflict.of(current.transaction.id)
    }
    yield* (yield* Outbox.Outbox).append(yield* CardEvents.ofTransaction(platformId, transaction))
    return next
  })

/** The currency of the registry named `code` (cards only hold registry currencies). */
export const currencyOf = (code: string): Currency.Currency =>
  Option.getOrThrowWith(Currency.find(code), () => new Error(`unknown currency ${code}`))

/** `amountMinor` of `currency` as the API shows it. */
export const amountIn = (currency: Currency.Currency, amountMinor: bigint): Money.CurrencyAmount => ({
  amount: Money.toWire(amountMinor),
  currency
})

/** The minor units of an amount, for ledger arithmetic. */
export const minor = (amount: Money.CurrencyAmount): bigint => BigInt(amount.amount)

/** A summary with one more item of `amountMinor` (or one fewer, with `count` -1 and a negative amount). */
export const add = (
  summary: Summary | undefined,
  count: number,
  amountMinor: bigint,
  currency: Currency.Currency
): Summary => ({
  count: (summary?.count ?? 0) + count,
  totalAmount: amountIn(currency, (summary === undefined ? 0n : minor(summary.totalAmount)) + amountMinor)
})
