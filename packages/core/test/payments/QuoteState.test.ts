import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { QuoteState, Quote } from "@payrail/core"

type Status = Quote.QuoteStatus
type Event = QuoteState.QuoteEvent

// The accepted pairs, written out independently of the module: the spec's row first, then the additions.
const accepted: ReadonlyArray<readonly [Status, Event, Status]> = [
  ["PENDING", "EXECUTE", "PROCESSING"],
  ["PENDING", "REQUIRE_AUTHORIZATION", "PENDING_AUTHORIZATION"],
  ["PENDING", "EXPIRE", "EXPIRED"],
  ["PENDING", "FAIL", "FAILED"],
  ["PENDING_AUTHORIZATION", "AUTHORIZE", "PROCESSING"],
  ["PENDING_AUTHORIZATION", "AUTHORIZE_FUNDING", "PENDING"],
  ["PENDING_AUTHORIZATION", "EXPIRE", "EXPIRED"],
  ["PENDING_AUTHORIZATION", "FAIL", "FAILED"],
  ["PROCESSING", "COMPLETE", "COMPLETED"],
  ["PROCESSING", "FAIL", "FAILED"],
  ["COMPLETED", "RETURN", "FAILED"]
]

describe("QuoteState.transition", () => {
  const states = Quote.QuoteStatus.literals
  const events = QuoteState.QuoteEvent.literals

  it("has the reference's six quote statuses", () => {
    expect(states).toEqual(["PENDING", "PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED"])
  })

  it.each(states.flatMap((state) => events.map((event) => [state, event] as const)))(
    "%s + %s follows the table",
    (state, event) => {
      const expected = accepted.find(([from, on]) => from === state && on === event)?.[2]
      const result = QuoteState.transition("Quote:q", state, event)
      if (expected === undefined) {
        if (Either.isRight(result)) throw new Error("expected a refusal")
        expect(result.left).toMatchObject({
          _tag: "QuoteTransitionRefused",
          code: "INVALID_STATE_TRANSITION",
          details: { quoteId: "Quote:q", status: state, event }
        })
      } else {
        expect(result).toEqual(Either.right(expected))
      }
    }
  )

  it("walks strong customer authentication: held, then authorized or failed (SCA_NOT_COMPLETED); never re-executed", () => {
    // An SCA customer's execute holds the quote; execute again is 409 while it waits.
    expect(QuoteState.transition("Quote:q", "PENDING", "REQUIRE_AUTHORIZATION")).toEqual(
      Either.right("PENDING_AUTHORIZATION")
    )
    expect(Either.isLeft(QuoteState.transition("Quote:q", "PENDING_AUTHORIZATION", "EXECUTE"))).toBe(true)
    expect(Either.isLeft(QuoteState.transition("Quote:q", "PENDING_AUTHORIZATION", "REQUIRE_AUTHORIZATION"))).toBe(true)
    // POST /quotes/{id}/authorize executes it; a lapsed challenge fails it.
    expect(QuoteState.transition("Quote:q", "PENDING_AUTHORIZATION", "AUTHORIZE")).toEqual(Either.right("PROCESSING"))
    expect(QuoteState.transition("Quote:q", "PENDING_AUTHORIZATION", "FAIL")).toEqual(Either.right("FAILED"))
    // Only a held quote is authorized.
    for (const state of ["PENDING", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED"] as const) {
      expect(Either.isLeft(QuoteState.transition("Quote:q", state, "AUTHORIZE"))).toBe(true)
    }
  })

  it("executes a quote once: a second execute is refused", () => {
    const first = QuoteState.transition("Quote:q", "PENDING", "EXECUTE")
    expect(first).toEqual(Either.right("PROCESSING"))
    expect(Either.isLeft(QuoteState.transition("Quote:q", "PROCESSING", "EXECUTE"))).toBe(true)
  })
})
