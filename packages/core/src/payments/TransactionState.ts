import { Either, Schema } from "effect"
import { TransactionTransitionRefused } from "./PaymentErrors.js"
import type { TransactionStatus } from "./Transaction.js"

/**
 * The transaction status machine (docs/payments.md). The reference lists the statuses, not the transitions; the
 * table below fills them in. It is total: every (state, event) pair names its next state or `null` (refused), so
 * storage persists a transition with a guard on the `from` state.
 */

/**
 * What can happen to a transaction:
 * - `FUNDED`: the money was taken (an executed quote's reservation, a pull's or real-time funding's arrival).
 * - `AUTHORIZATION_REQUIRED` / `AUTHORIZED`: strong customer authentication is asked for, then given.
 * - `FUNDING_AUTHORIZED`: a real-time funded payment held at creation was authorized: it waits for the payer's money.
 * - `COMPLETED`: the rail delivered the money.
 * - `FAILED`: the payment failed; money not yet gone is released, money gone is refunded.
 * - `RETURNED`: a delivered payment came back (the receiving bank returned it); it is refunded.
 * - `REJECTED`: the receiver (or the platform, for an incoming payment) refused it.
 * - `EXPIRED`: its quote expired before it was funded.
 * - `REFUNDED`: a completed incoming payment was sent back.
 */
export const TransactionEvent = Schema.Literal(
  "QUOTED",
  "FUNDED",
  "AUTHORIZATION_REQUIRED",
  "AUTHORIZED",
  "FUNDING_AUTHORIZED",
  "COMPLETED",
  "FAILED",
  "RETURNED",
  "REJECTED",
  "EXPIRED",
  "REFUNDED"
)
export type TransactionEvent = typeof TransactionEvent.Type

type Row = { readonly [E in TransactionEvent]: TransactionStatus | null }

const refused: Row = {
  QUOTED: null,
  FUNDED: null,
  AUTHORIZATION_REQUIRED: null,
  AUTHORIZED: null,
  FUNDING_AUTHORIZED: null,
  COMPLETED: null,
  FAILED: null,
  RETURNED: null,
  REJECTED: null,
  EXPIRED: null,
  REFUNDED: null
}

/**
 * The total transition table: CREATED (a lookup) is quoted to PENDING; PENDING is funded to PROCESSING, or waits
 * for authorization, or (an incoming payment held on the sender's side, such as a long-pending UMA payment) completes
 * at once; PROCESSING completes or fails; a COMPLETED payment may still be returned (FAILED, refunded) and
 * a completed incoming one refunded; PENDING ones may fail (funding mismatch), be rejected or expire. FAILED,
 * REJECTED, REFUNDED and EXPIRED are final.
 */
export const transitions: { readonly [S in TransactionStatus]: Row } = {
  CREATED: { ...refused, QUOTED: "PENDING", EXPIRED: "EXPIRED", FAILED: "FAILED" },
  PENDING: {
    ...refused,
    FUNDED: "PROCESSING",
    AUTHORIZATION_REQUIRED: "PENDING_AUTHORIZATION",
    COMPLETED: "COMPLETED",
    FAILED: "FAILED",
    REJECTED: "REJECTED",
    EXPIRED: "EXPIRED"
  },
  PENDING_AUTHORIZATION: {
    ...refused,
    AUTHORIZED: "PROCESSING",
    FUNDING_AUTHORIZED: "PENDING",
    FAILED: "FAILED",
    EXPIRED: "EXPIRED"
  },
  PROCESSING: { ...refused, COMPLETED: "COMPLETED", FAILED: "FAILED", REJECTED: "REJECTED" },
  COMPLETED: { ...refused, RETURNED: "FAILED", REFUNDED: "REFUNDED" },
  REJECTED: refused,
  FAILED: refused,
  REFUNDED: refused,
  EXPIRED: refused
}

/** The status after `event` in status `from`, or `TransactionTransitionRefused` when the table refuses the pair. */
export const transition = (
  transactionId: string,
  from: TransactionStatus,
  event: TransactionEvent
): Either.Either<TransactionStatus, TransactionTransitionRefused> => {
  const next = transitions[from][event]
  return next === null ? Either.left(TransactionTransitionRefused.of(transactionId, from, event)) : Either.right(next)
}
