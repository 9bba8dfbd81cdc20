import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { ExternalAccountInfo, ExternalAccountStatus } from "@payrail/core"
import { AccountInfoExamples } from "@payrail/account-formats"

const { exampleOf, person } = AccountInfoExamples

type Status = ExternalAccountStatus.ExternalAccountStatus
type Event = ExternalAccountStatus.ExternalAccountEvent

// The accepted pairs, written out independently of the module: the spec's three rows first, then the additions.
const accepted: ReadonlyArray<readonly [Status, Event, Status]> = [
  ["PENDING_OWNERSHIP_VERIFICATION", "OWNERSHIP_VERIFICATION_SUCCEEDED", "ACTIVE"],
  ["PENDING_OWNERSHIP_VERIFICATION", "OWNERSHIP_VERIFICATION_FAILED", "UNVERIFIED"],
  ["UNVERIFIED", "OWNERSHIP_VERIFICATION_SUCCEEDED", "ACTIVE"],
  ["PENDING_OWNERSHIP_VERIFICATION", "CHALLENGE_STARTED", "PENDING_OWNERSHIP_VERIFICATION"],
  ["UNVERIFIED", "CHALLENGE_STARTED", "UNVERIFIED"],
  ["UNVERIFIED", "OWNERSHIP_VERIFICATION_FAILED", "UNVERIFIED"],
  ["PENDING", "ACTIVATED", "ACTIVE"],
  ["PENDING", "REVIEW_REQUIRED", "UNDER_REVIEW"],
  ["ACTIVE", "REVIEW_REQUIRED", "UNDER_REVIEW"],
  ["UNDER_REVIEW", "REVIEW_APPROVED", "ACTIVE"],
  ["UNDER_REVIEW", "REVIEW_REJECTED", "INACTIVE"],
  ["PENDING", "DEACTIVATED", "INACTIVE"],
  ["ACTIVE", "DEACTIVATED", "INACTIVE"],
  ["PENDING_OWNERSHIP_VERIFICATION", "DEACTIVATED", "INACTIVE"],
  ["UNVERIFIED", "DEACTIVATED", "INACTIVE"],
  ["UNDER_REVIEW", "DEACTIVATED", "INACTIVE"]
]

const decoded = (accountInfo: unknown) => Schema.decodeUnknownSync(ExternalAccountInfo.ExternalAccountInfo)(accountInfo)

describe("ExternalAccountStatus.transition", () => {
  const states = ExternalAccountStatus.ExternalAccountStatus.literals
  const events = ExternalAccountStatus.ExternalAccountEvent.literals

  it("has exactly the six states of the spec", () => {
    expect(states).toEqual([
      "PENDING",
      "ACTIVE",
      "PENDING_OWNERSHIP_VERIFICATION",
      "UNVERIFIED",
      "UNDER_REVIEW",
      "INACTIVE"
    ])
  })

  it.each(states.flatMap((state) => events.map((event) => [state, event] as const)))(
    "%s + %s follows the table",
    (state, event) => {
      const expected = accepted.find(([from, on]) => from === state && on === event)?.[2]
      const result = ExternalAccountStatus.transition(state, event)
      if (expected === undefined) {
        if (Either.isRight(result)) throw new Error("expected a refusal")
        expect(result.left).toMatchObject({
          _tag: "InvalidTransition",
          code: "INVALID_STATE_TRANSITION",
          details: { from: state, event }
        })
      } else {
        expect(result).toEqual(Either.right(expected))
      }
    }
  )

  it("keeps INACTIVE final", () => {
    for (const event of events) expect(Either.isLeft(ExternalAccountStatus.transition("INACTIVE", event))).toBe(true)
  })

  it("names the ownership-verification states", () => {
    expect(states.filter(ExternalAccountStatus.awaitsOwnershipVerification)).toEqual([
      "PENDING_OWNERSHIP_VERIFICATION",
      "UNVERIFIED"
    ])
  })
})

describe("ExternalAccountStatus.initialStatus", () => {
  const selfCustody = decoded(exampleOf("BASE_WALLET"))
  const initial = (
    accountInfo: ExternalAccountInfo.ExternalAccountInfo,
    subjectToCounterpartyRules: boolean,
    ownershipType?: ExternalAccountStatus.OwnershipType
  ) => ExternalAccountStatus.initialStatus({ accountInfo, subjectToCounterpartyRules, ownershipType })

  it("starts a first-party self-custody wallet under counterparty rules in ownership verification", () => {
    expect(initial(selfCustody, true, "FIRST_PARTY")).toEqual(Either.right("PENDING_OWNERSHIP_VERIFICATION"))
  })

  it("requires ownershipType there, and a beneficiary for a third-party wallet", () => {
    const missing = initial(selfCustody, true)
    expect(Either.isLeft(missing) && missing.left.details?.errors.map((error) => error.field)).toEqual([
      "ownershipType"
    ])
    const thirdParty = initial(selfCustody, true, "THIRD_PARTY")
    expect(Either.isLeft(thirdParty) && thirdParty.left.details?.errors.map((error) => error.field)).toEqual([
      "accountInfo.beneficiary"
    ])
    const owned = decoded({ ...exampleOf("BASE_WALLET"), beneficiary: { ...person, countryOfResidence: "DE" } })
    expect(initial(owned, true, "THIRD_PARTY")).toEqual(Either.right("ACTIVE"))
  })

  it("starts everything else ACTIVE", () => {
    expect(initial(selfCustody, false)).toEqual(Either.right("ACTIVE"))
    expect(initial(selfCustody, false, "FIRST_PARTY")).toEqual(Either.right("ACTIVE"))
    expect(initial(decoded(exampleOf("ETHEREUM_WALLET")), true)).toEqual(Either.right("ACTIVE"))
    expect(initial(decoded(exampleOf("LIGHTNING")), true)).toEqual(Either.right("ACTIVE"))
    expect(initial(decoded(exampleOf("USD_ACCOUNT")), true, "FIRST_PARTY")).toEqual(Either.right("ACTIVE"))
  })
})
