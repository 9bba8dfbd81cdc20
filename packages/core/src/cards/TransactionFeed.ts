import { Context, Effect, Layer, Option, Schema } from "effect"
import { Page, type StoreFailure } from "../kernel/index.js"
import { PaymentErrors, Transaction, type TransactionRepo, Transactions } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import {
  CardTransaction,
  type CardTransactionFilter,
  CardTransactionId,
  CardTransactionStatus
} from "./CardTransaction.js"
import { CardTransactionRepo } from "./CardTransactionRepo.js"

/**
 * `GET /transactions`: money transactions (`INCOMING`, `OUTGOING`) and card transactions (`CARD`) in one list, in
 * one keyset order by `(createdAt, id)` with one cursor across both (docs/payments.md).
 */

/** A row of the list: a money transaction or a card transaction, told apart by `type`. */
export const FeedTransaction = Schema.Union(Transaction.Transaction, CardTransaction)
export type FeedTransaction = typeof FeedTransaction.Type

/** Either kind of transaction id. */
export const FeedTransactionId = Schema.Union(Transaction.TransactionId, CardTransactionId)
export type FeedTransactionId = typeof FeedTransactionId.Type

/** `type` filter: a money transaction's type, or `CARD`. */
export const FeedType = Schema.Literal(...Transaction.TransactionType.literals, "CARD")
export type FeedType = typeof FeedType.Type

/** `status` filter: a money transaction's status or a card transaction's (`EXPIRED` and `REFUNDED` are both). */
export const FeedStatus = Schema.Literal(
  ...Transaction.TransactionStatus.literals,
  ...CardTransactionStatus.literals.filter(
    (status): status is Exclude<CardTransactionStatus, Transaction.TransactionStatus> =>
      !(Transaction.TransactionStatus.literals as ReadonlyArray<string>).includes(status)
  )
)
export type FeedStatus = typeof FeedStatus.Type

/** The filters of `GET /transactions`: those of money transactions, with `type` and `status` of either kind. */
export interface FeedFilter extends Omit<TransactionRepo.TransactionFilter, "type" | "status"> {
  readonly type?: FeedType | undefined
  readonly status?: FeedStatus | undefined
}

const isMoneyType = Schema.is(Transaction.TransactionType)
const isMoneyStatus = Schema.is(Transaction.TransactionStatus)
const isCardStatus = Schema.is(CardTransactionStatus)
const isCardTransactionId = Schema.is(CardTransactionId)

/** The money transactions' filter of `filter`, or none when it matches no money transaction (`CARD`, a card status). */
export const moneyFilter = (filter: FeedFilter): Option.Option<TransactionRepo.TransactionFilter> => {
  const { status, type, ...rest } = filter
  if (type !== undefined && !isMoneyType(type)) return Option.none()
  if (status !== undefined && !isMoneyStatus(status)) return Option.none()
  return Option.some({ ...rest, type, status })
}

/**
 * The card transactions' filter of `filter`, or none when it matches no card row: a money `type` or status, a
 * `receiverAccountIdentifier` or `reference` (card rows have neither), or account identifiers naming two accounts.
 * `accountIdentifier` and `senderAccountIdentifier` match a card row's funding source (`accountId`).
 */
export const cardFilter = (filter: FeedFilter): Option.Option<CardTransactionFilter> => {
  if (filter.type !== undefined && filter.type !== "CARD") return Option.none()
  if (filter.status !== undefined && !isCardStatus(filter.status)) return Option.none()
  if (filter.receiverAccountIdentifier !== undefined || filter.reference !== undefined) return Option.none()
  const accounts = new Set([filter.accountIdentifier, filter.senderAccountIdentifier].filter((id) => id !== undefined))
  if (accounts.size > 1) return Option.none()
  return Option.some({
    customerId: filter.customerId,
    platformCustomerId: filter.platformCustomerId,
    accountId: [...accounts][0],
    status: filter.status,
    startDate: filter.startDate,
    endDate: filter.endDate,
    sortOrder: filter.sortOrder
  })
}

const nothing = <A>(): Page.Page<A> => ({ data: [], hasMore: false })

/**
 * The platform's transactions of both kinds.
 * - `list` answers the page that one table holding both kinds would give: `Page.merge` of a page of each kind after
 *   the same cursor, so paging in either order yields every row once; not counted.
 * - `get` reads either kind by its id; an unknown id of either kind is 404 `TRANSACTION_NOT_FOUND`.
 */
export class TransactionFeed extends Context.Tag("@payrail/core/TransactionFeed")<
  TransactionFeed,
  {
    readonly list: (
      platform: Platform.Platform,
      filter: FeedFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<FeedTransaction>, StoreFailure.StoreFailure>
    readonly get: (
      platform: Platform.Platform,
      id: FeedTransactionId
    ) => Effect.Effect<FeedTransaction, PaymentErrors.TransactionNotFound | StoreFailure.StoreFailure>
  }
>() {}

/** `TransactionFeed` over the payments context's `Transactions` and the card transactions' repository. */
export const layer: Layer.Layer<TransactionFeed, never, Transactions.Transactions | CardTransactionRepo> = Layer.effect(
  TransactionFeed,
  Effect.gen(function* () {
    const transactions = yield* Transactions.Transactions
    const cards = yield* CardTransactionRepo
    return {
      list: Effect.fn("TransactionFeed.list")(function* (
        platform: Platform.Platform,
        filter: FeedFilter,
        page: Page.PageRequest
      ) {
        const pages = yield* Effect.all(
          [
            Option.match(moneyFilter(filter), {
              onNone: () => Effect.succeed(nothing<FeedTransaction>()),
              onSome: (money) => transactions.list(platform, money, page)
            }),
            Option.match(cardFilter(filter), {
              onNone: () => Effect.succeed(nothing<FeedTransaction>()),
              onSome: (card) => cards.list(platform.id, card, page)
            })
          ],
          { concurrency: 2 }
        )
        return Page.merge<FeedTransaction>(pages, page, filter.sortOrder)
      }),
      get: Effect.fn("TransactionFeed.get")(function* (platform: Platform.Platform, id: FeedTransactionId) {
        if (!isCardTransactionId(id)) return yield* transactions.get(platform, id)
        const found = yield* cards.findById(platform.id, id)
        if (Option.isNone(found)) return yield* Effect.fail(PaymentErrors.TransactionNotFound.of(id))
        return found.value.transaction
      })
    }
  })
)
