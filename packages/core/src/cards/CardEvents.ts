import { type Effect, Schema } from "effect"
import { DomainEvent, type Ids } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { type Card, CardView, view } from "./Card.js"
import { CardTransaction } from "./CardTransaction.js"

/**
 * The card webhooks (docs/cards.md, docs/card-transactions.md), each with the whole resource as the API shows it:
 * - `CARD.STATUS_CHANGE` (our spec's name) on every status change of a card after its creation, activation first;
 * - `CARD.FUNDING_SOURCE_CHANGE` (the reference API's) when `PATCH /cards/{id}` changes the funding source;
 * - `CARD_TRANSACTION.<status>` (the reference API's, e.g. `CARD_TRANSACTION.AUTHORIZED`) when a card transaction
 *   is created and on every change of it (a clearing, a refund), with the transaction's status after it.
 */
export const CardEventType = Schema.Literal("CARD.STATUS_CHANGE", "CARD.FUNDING_SOURCE_CHANGE")
export type CardEventType = typeof CardEventType.Type

const encodeCard = Schema.encodeSync(CardView)
const encodeTransaction = Schema.encodeSync(CardTransaction)

/** The event reporting `card` as it now is. */
export const ofCard = (
  platformId: Platform.PlatformId,
  type: CardEventType,
  card: Card
): Effect.Effect<DomainEvent.DomainEvent, never, Ids.Ids> => DomainEvent.make(platformId, type, encodeCard(view(card)))

/** The webhook type of a card transaction in `status`. */
export const transactionEventType = (transaction: CardTransaction): `CARD_TRANSACTION.${string}` =>
  `CARD_TRANSACTION.${transaction.status}`

/** The event reporting `transaction` as it now is. */
export const ofTransaction = (
  platformId: Platform.PlatformId,
  transaction: CardTransaction
): Effect.Effect<DomainEvent.DomainEvent, never, Ids.Ids> =>
  DomainEvent.make(platformId, transactionEventType(transaction), encodeTransaction(transaction))
