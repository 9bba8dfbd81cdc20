import { Context, type Effect } from "effect"
import type { InvalidInput, Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { CardId } from "./Card.js"
import type {
  CardConflict,
  CardDeclined,
  CardNotFound,
  CardTransactionNotFound,
  CardTransactionStateInvalid
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

type Failure = CardNotFound | CardConflict | InvalidInput.InvalidInput | StoreFailure.StoreFailure
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
