import { Context, Effect, Layer, Option } from "effect"
import type { CustomerRepo } from "../customers/index.js"
import type { Jobs } from "../events/index.js"
import type { Ids, InvalidInput, Outbox, Page, StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Ledger } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import * as CardAuthorization from "./CardAuthorization.js"
import * as CardClearing from "./CardClearing.js"
import * as CardRefunds from "./CardRefunds.js"
import type { CardRepo } from "./CardRepo.js"
import { CardTransactionRepo } from "./CardTransactionRepo.js"
import type { CardId } from "./Card.js"
import {
  type CardConflict,
  type CardDeclined,
  type CardNotFound,
  CardTransactionNotFound,
  type CardTransactionStateInvalid
} from "./CardErrors.js"
import type { CardTransaction, CardTransactionFilter, CardTransactionId } from "./CardTransaction.js"
import type {
  AuthorizationKind,
  BalanceInquiryResult,
  SimulatedAdvice,
  SimulatedAuthorization,
  SimulatedBalanceInquiry,
  SimulatedClearing,
  SimulatedReturn,
  SimulatedReturnReversal
} from "./CardSimulation.js"

/**
 * `BalanceLimitExceeded`: a credit would take the funding account's balance past `Ledger.balanceMinorMax` (added
 * for the implementation; the ledger refuses it and nothing is recorded).
 */
type Failure =
  CardNotFound | CardConflict | InvalidInput.InvalidInput | Ledger.BalanceLimitExceeded | StoreFailure.StoreFailure
type OnTransaction = Failure | CardTransactionNotFound | CardTransactionStateInvalid

/**
 * Card transactions: what the card network does to a card (the sandbox simulators drive it), each change with its
 * ledger postings and its `CARD_TRANSACTION.<status>` webhook in one unit of work (docs/card-transactions.md).
 * An authorization holds its amount on the funding account (a pending posting, so the available balance never goes
 * below zero, whatever runs concurrently); a clearing settles; a refund credits.
 */
export class CardTransactions extends Context.Tag("@payrail/core/CardTransactions")<
  CardTransactions,
  {
    /** A new card transaction of `kind` (declines fail `CardDeclined` and record nothing). */
    readonly authorize: (
      platform: Platform.Platform,
      cardId: CardId,
      kind: AuthorizationKind,
      request: SimulatedAuthorization
    ) => Effect.Effect<CardTransaction, Failure | CardDeclined>
    readonly clear: (
      platform: Platform.Platform,
      cardId: CardId,
      request: SimulatedClearing
    ) => Effect.Effect<CardTransaction, OnTransaction>
    /** A merchant refund: a new `CREDIT` row linked by `originalTransactionId`; the purchase rolls it up. */
    readonly refund: (
      platform: Platform.Platform,
      cardId: CardId,
      request: SimulatedReturn
    ) => Effect.Effect<CardTransaction, OnTransaction>
    readonly reverseRefund: (
      platform: Platform.Platform,
      cardId: CardId,
      request: SimulatedReturnReversal
    ) => Effect.Effect<CardTransaction, OnTransaction | CardDeclined>
    readonly advise: (
      platform: Platform.Platform,
      cardId: CardId,
      request: SimulatedAdvice
    ) => Effect.Effect<CardTransaction, OnTransaction | CardDeclined>
    readonly balanceInquiry: (
      platform: Platform.Platform,
      cardId: CardId,
      request: SimulatedBalanceInquiry
    ) => Effect.Effect<BalanceInquiryResult, Failure | CardDeclined>
    readonly get: (
      platform: Platform.Platform,
      id: CardTransactionId
    ) => Effect.Effect<CardTransaction, CardTransactionNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: CardTransactionFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<CardTransaction>, StoreFailure.StoreFailure>
  }
>() {}

/** What the card transaction use cases need: storage, the ledger, the outbox and jobs. */
export type Requirements =
  | CardRepo
  | CardTransactionRepo
  | CustomerRepo.CustomerRepo
  | Ledger.Ledger
  | Outbox.Outbox
  | UnitOfWork.UnitOfWork
  | Ids.Ids
  | Jobs.Jobs

/** The card transactions of the domain, on the ports (docs/card-transactions.md). */
export const layer = Layer.effect(
  CardTransactions,
  Effect.gen(function* () {
    const context = yield* Effect.context<Requirements>()
    const rows = yield* CardTransactionRepo
    const run = <A, E>(effect: Effect.Effect<A, E, Requirements>) => Effect.provide(effect, context)
    return CardTransactions.of({
      authorize: (platform, cardId, kind, request) => run(CardAuthorization.authorize(platform, cardId, kind, request)),
      clear: (platform, cardId, request) => run(CardClearing.clear(platform, cardId, request)),
      refund: (platform, cardId, request) => run(CardRefunds.refund(platform, cardId, request)),
      reverseRefund: (platform, cardId, request) => run(CardRefunds.reverseRefund(platform, cardId, request)),
      advise: (platform, cardId, request) => run(CardClearing.advise(platform, cardId, request)),
      balanceInquiry: (platform, cardId, request) => run(CardAuthorization.balanceInquiry(platform, cardId, request)),
      get: Effect.fn("CardTransactions.get")(function* (platform, id) {
        const found = yield* rows.findById(platform.id, id)
        if (Option.isNone(found)) return yield* CardTransactionNotFound.of(id)
        return found.value.transaction
      }),
      list: (platform, filter, page) => rows.list(platform.id, filter, page)
    })
  })
)
