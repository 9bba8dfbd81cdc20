import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { Transaction, TransactionState } from "@payrail/core"

type Status = Transaction.TransactionStatus
type Event = TransactionState.TransactionEvent

// The accepted pairs, written out independently of the module.
const accepted: ReadonlyArray<readonly [Status, Event, Status]> = [
  ["CREATED", "QUOTED", "PENDING"],
  ["CREATED", "EXPIRED", "EXPIRED"],
  ["CREATED", "FAILED", "FAILED"],
  ["PENDING", "FUNDED", "PROCESSING"],
  ["PENDING", "AUTHORIZATION_REQUIRED", "PENDING_AUTHORIZATION"],
  ["PENDING", "COMPLETED", "COMPLETED"],
  ["PENDING", "FAILED", "FAILED"],
  ["PENDING", "REJECTED", "REJECTED"],
  ["PENDING", "EXPIRED", "EXPIRED"],
  ["PENDING_AUTHORIZATION", "AUTHORIZED", "PROCESSING"],
  ["PENDING_AUTHORIZATION", "FUNDING_AUTHORIZED", "PENDING"],
  ["PENDING_AUTHORIZATION", "FAILED", "FAILED"],
  ["PENDING_AUTHORIZATION", "EXPIRED", "EXPIRED"],
  ["PROCESSING", "COMPLETED", "COMPLETED"],
  ["PROCESSING", "FAILED", "FAILED"],
  ["PROCESSING", "REJECTED", "REJECTED"],
  ["COMPLETED", "RETURNED", "FAILED"],
  ["COMPLETED", "REFUNDED", "REFUNDED"]
]

describe("TransactionState.transition", () => {
  const states = Transaction.TransactionStatus.literals
  const events = TransactionState.TransactionEvent.literals

  it.each(states.flatMap((state) => events.map((event) => [state, event] as const)))(
    "%s + %s follows the table",
    (state, event) => {
      const expected = accepted.find(([from, on]) => from === state && on === event)?.[2]
      const result = TransactionState.transition("Transaction:t", state, event)
      if (expected === undefined) {
        if (Either.isRight(result)) throw new Error("expected a refusal")
        expect(result.left).toMatchObject({
          _tag: "TransactionTransitionRefused",
          code: "INVALID_STATE_TRANSITION",
          details: { transactionId: "Transaction:t", status: state, event }
        })
      } else {
        expect(result).toEqual(Either.right(expected))
      }
    }
  )

  it("keeps FAILED, REJECTED, REFUNDED and EXPIRED final", () => {
    for (const state of ["FAILED", "REJECTED", "REFUNDED", "EXPIRED"] as const) {
      for (const event of events)
        expect(Either.isLeft(TransactionState.transition("Transaction:t", state, event))).toBe(true)
    }
  })
})
