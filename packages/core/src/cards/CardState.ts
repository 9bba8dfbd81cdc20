import { Either, Schema } from "effect"
import type { CardStatus } from "./Card.js"

/**
 * The card status machine (docs/cards.md). The table is total: every (state, event) pair names its next status or
 * `null` (refused). Storage persists a decided transition by compare-and-set on the card's version, so of two
 * concurrent decisions exactly one applies.
 */

/** Where a card stands: before it exists (`NONE`), then one of the stored statuses. */
export const CardState = Schema.Literal("NONE", "PROCESSING", "ACTIVE", "FROZEN", "CLOSED")
export type CardState = typeof CardState.Type

/**
 * What can happen to a card:
 * - `ISSUE`: `POST /cards` accepted it (the spec's first row).
 * - `ACTIVATE`: the issuer's provisioning completed (`CARD.STATUS_CHANGE` with `ACTIVE`).
 * - `REJECT`: the issuer refused it (`CLOSED`, `stateReason: ISSUER_REJECTED`).
 * - `FREEZE`, `UNFREEZE`: `PATCH /cards/{id}` with `FROZEN` or `ACTIVE`.
 * - `CLOSE`: `PATCH /cards/{id}` with `CLOSED` (`stateReason: CLOSED_BY_PLATFORM`; the funding source detached).
 */
export const CardEvent = Schema.Literal("ISSUE", "ACTIVATE", "REJECT", "FREEZE", "UNFREEZE", "CLOSE")
export type CardEvent = typeof CardEvent.Type

type Row = { readonly [E in CardEvent]: CardStatus | null }

const refused: Row = { ISSUE: null, ACTIVATE: null, REJECT: null, FREEZE: null, UNFREEZE: null, CLOSE: null }

/**
 * The total table. The spec's rows: (none) + `POST /cards` → PROCESSING; PROCESSING + provisioning completes →
 * ACTIVE. The reference API's: the issuer may reject a card in PROCESSING (→ CLOSED); ACTIVE ⇄ FROZEN; ACTIVE or
 * FROZEN → CLOSED. A card in PROCESSING takes no platform change (409 `CARD_NOT_MUTABLE`) and CLOSED is final
 * (409 `CARD_ALREADY_CLOSED`).
 */
export const transitions: { readonly [S in CardState]: Row } = {
  NONE: { ...refused, ISSUE: "PROCESSING" },
  PROCESSING: { ...refused, ACTIVATE: "ACTIVE", REJECT: "CLOSED" },
  ACTIVE: { ...refused, FREEZE: "FROZEN", CLOSE: "CLOSED" },
  FROZEN: { ...refused, UNFREEZE: "ACTIVE", CLOSE: "CLOSED" },
  CLOSED: refused
}

/** A pair the table refuses. */
export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("CardInvalidTransition", {
  code: Schema.tag("INVALID_STATE_TRANSITION"),
  reason: Schema.String,
  details: Schema.Struct({ state: CardState, event: CardEvent })
}) {
  static of(state: CardState, event: CardEvent): InvalidTransition {
    return new InvalidTransition({
      reason: `A card in state ${state} does not take ${event}`,
      details: { state, event }
    })
  }
}

/** The status after `event` in `state`, or `InvalidTransition` when the table refuses the pair. */
export const next = (state: CardState, event: CardEvent): Either.Either<CardStatus, InvalidTransition> => {
  const to = transitions[state][event]
  return to === null ? Either.left(InvalidTransition.of(state, event)) : Either.right(to)
}

/** The event a `PATCH /cards/{id}` asking for `status` is, from `current`; `undefined` when nothing changes. */
export const eventFor = (current: CardStatus, status: "ACTIVE" | "FROZEN" | "CLOSED"): CardEvent | undefined =>
  status === current ? undefined : status === "FROZEN" ? "FREEZE" : status === "CLOSED" ? "CLOSE" : "UNFREEZE"
