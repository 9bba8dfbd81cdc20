import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { CardState } from "@payrail/core"

type State = CardState.CardState
type Event = CardState.CardEvent

// The accepted pairs, written out independently of the module: the spec's two rows, then the reference's.
const accepted: ReadonlyArray<readonly [State, Event, State]> = [
  ["NONE", "ISSUE", "PROCESSING"],
  ["PROCESSING", "ACTIVATE", "ACTIVE"],
  ["PROCESSING", "REJECT", "CLOSED"],
  ["ACTIVE", "FREEZE", "FROZEN"],
  ["FROZEN", "UNFREEZE", "ACTIVE"],
  ["ACTIVE", "CLOSE", "CLOSED"],
  ["FROZEN", "CLOSE", "CLOSED"]
]

describe("CardState.next", () => {
  const states = CardState.CardState.literals
  const events = CardState.CardEvent.literals

  it.each(states.flatMap((state) => events.map((event) => [state, event] as const)))(
    "%s + %s follows the table",
    (state, event) => {
      const expected = accepted.find(([from, on]) => from === state && on === event)?.[2]
      const result = CardState.next(state, event)
      if (expected === undefined) {
        if (Either.isRight(result)) throw new Error(`expected ${state} + ${event} to be refused`)
        expect(result.left).toMatchObject({
          _tag: "CardInvalidTransition",
          code: "INVALID_STATE_TRANSITION",
          details: { state, event }
        })
      } else {
        expect(result).toEqual(Either.right(expected))
      }
    }
  )

  it("keeps a closed card closed: every event is refused", () => {
    for (const event of events) expect(Either.isLeft(CardState.next("CLOSED", event))).toBe(true)
  })
})

describe("CardState.eventFor", () => {
  it("names the event of a PATCH, and none when the status asked for is the current one", () => {
    expect(CardState.eventFor("ACTIVE", "FROZEN")).toBe("FREEZE")
    expect(CardState.eventFor("FROZEN", "ACTIVE")).toBe("UNFREEZE")
    expect(CardState.eventFor("ACTIVE", "CLOSED")).toBe("CLOSE")
    expect(CardState.eventFor("FROZEN", "CLOSED")).toBe("CLOSE")
    expect(CardState.eventFor("ACTIVE", "ACTIVE")).toBeUndefined()
    expect(CardState.eventFor("FROZEN", "FROZEN")).toBeUndefined()
    expect(CardState.eventFor("CLOSED", "CLOSED")).toBeUndefined()
  })
})
