import { Either, Schema } from "effect"
import { QuoteTransitionRefused } from "./PaymentErrors.js"
import type { QuoteStatus } from "./Quote.js"

/**
 * The quote status machine. The spec shows one row (PENDING + execute, funded → PROCESSING); the rest is filled in
 * here and documented in docs/payments.md. The table is total: every (state, event) pair names its next state or
 * `null` (refused), so storage persists a transition with a guard on the `from` state.
 */

/**
 * What can happen to a quote:
 * - `EXECUTE`: `POST /quotes/{id}/execute` (or `immediatelyExecute`, or the payer's real-time funding arrived): the
 *   source amount is taken and the payment starts.
 * - `REQUIRE_AUTHORIZATION` / `AUTHORIZE`: strong customer authentication is asked for, then completed.
 * - `AUTHORIZE_FUNDING`: a real-time funded quote held at creation was authorized: it waits for the payer's money.
 * - `EXPIRE`: `expiresAt` passed before execution.
 * - `COMPLETE` / `FAIL`: the payment settled or failed.
 * - `RETURN`: a completed payment came back from the receiving bank (it is refunded).
 */
export const QuoteEvent = Schema.Literal(
  "EXECUTE",
  "REQUIRE_AUTHORIZATION",
  "AUTHORIZE",
  "AUTHORIZE_FUNDING",
  "EXPIRE",
  "COMPLETE",
  "FAIL",
  "RETURN"
)
export type QuoteEvent = typeof QuoteEvent.Type

type Row = { readonly [E in QuoteEvent]: QuoteStatus | null }

const refused: Row = {
  EXECUTE: null,
  REQUIRE_AUTHORIZATION: null,
  AUTHORIZE: null,
  AUTHORIZE_FUNDING: null,
  EXPIRE: null,
  COMPLETE: null,
  FAIL: null,
  RETURN: null
}

/**
 * The total transition table. The spec's row: PENDING + EXECUTE → PROCESSING. Additions: PENDING may need
 * authorization first (PENDING_AUTHORIZATION + AUTHORIZE → PROCESSING; a real-time funded one goes back to PENDING
 * to wait for its money); either waiting state expires or fails (a
 * real-time funding that does not match); PROCESSING completes or fails; COMPLETED may be returned (→ FAILED).
 * EXPIRED and FAILED are final.
 */
export const transitions: { readonly [S in QuoteStatus]: Row } = {
  PENDING: {
    ...refused,
    EXECUTE: "PROCESSING",
    REQUIRE_AUTHORIZATION: "PENDING_AUTHORIZATION",
    EXPIRE: "EXPIRED",
    FAIL: "FAILED"
  },
  PENDING_AUTHORIZATION: {
    ...refused,
    AUTHORIZE: "PROCESSING",
    AUTHORIZE_FUNDING: "PENDING",
    EXPIRE: "EXPIRED",
    FAIL: "FAILED"
  },
  PROCESSING: { ...refused, COMPLETE: "COMPLETED", FAIL: "FAILED" },
  COMPLETED: { ...refused, RETURN: "FAILED" },
  FAILED: refused,
  EXPIRED: refused
}

/** The status after `event` in status `from`, or `QuoteTransitionRefused` when the table refuses the pair. */
export const transition = (
  quoteId: string,
  from: QuoteStatus,
  event: QuoteEvent
): Either.Either<QuoteStatus, QuoteTransitionRefused> => {
  const next = transitions[from][event]
  return next === null ? Either.left(QuoteTransitionRefused.of(quoteId, from, event)) : Either.right(next)
}
