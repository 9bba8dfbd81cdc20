import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { AgentActionState } from "@payrail/core"

type State = AgentActionState.AgentActionState
type Event = AgentActionState.AgentActionEvent

// The accepted pairs, written out independently of the module: the spec's four rows, then the two additions.
const accepted: ReadonlyArray<readonly [State, Event, State]> = [
  ["NONE", "SUBMIT_NEEDS_APPROVAL", "PENDING_APPROVAL"],
  ["PENDING_APPROVAL", "APPROVE_EXECUTED", "APPROVED"],
  ["PENDING_APPROVAL", "REJECT", "REJECTED"],
  ["PENDING_APPROVAL", "APPROVE_IMPOSSIBLE", "FAILED"],
  ["NONE", "SUBMIT_ELIGIBLE", "APPROVED"],
  ["PENDING_APPROVAL", "EXPIRE", "FAILED"]
]

describe("AgentActionState.transition", () => {
  const states = AgentActionState.AgentActionState.literals
  const events = AgentActionState.AgentActionEvent.literals

  it.each(states.flatMap((state) => events.map((event) => [state, event] as const)))(
    "%s + %s follows the table",
    (state, event) => {
      const expected = accepted.find(([from, on]) => from === state && on === event)?.[2]
      const result = AgentActionState.transition(state, event)
      if (expected === undefined) {
        if (Either.isRight(result)) throw new Error(`expected ${state} + ${event} to be refused`)
        expect(result.left).toMatchObject({
          _tag: "InvalidTransition",
          code: "INVALID_STATE_TRANSITION",
          details: { state, event }
        })
      } else {
        expect(result).toEqual(Either.right(expected))
      }
    }
  )

  it("keeps decided actions final: a second decision is refused", () => {
    for (const decided of ["APPROVED", "REJECTED", "FAILED"] as const) {
      for (const event of ["APPROVE_EXECUTED", "APPROVE_IMPOSSIBLE", "REJECT", "EXPIRE"] as const) {
        expect(Either.isLeft(AgentActionState.transition(decided, event))).toBe(true)
      }
    }
  })
})
