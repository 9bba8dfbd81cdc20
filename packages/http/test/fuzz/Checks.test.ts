import { describe, expect, it } from "vitest"
import { echoesIn } from "./Checks.js"

const body = JSON.stringify({
  status: 400,
  code: "INVALID_INPUT",
  message: "The request has invalid fields",
  reason: "The request has invalid fields",
  details: { errors: [{ field: "constructor", message: "is not allowed" }] }
})

describe("the fuzz's echo check", () => {
  it("lets a field error name an unknown key the client sent, even when a value spells the same word", () => {
    const sent = [
      { name: "(key)", value: "constructor", key: true as const },
      { name: "postalCode", value: "constructor" }
    ]
    expect(echoesIn(body, sent, new Set())).toEqual([])
  })

  it("still reports a value repeated where no sent key explains it", () => {
    const sent = [{ name: "postalCode", value: "constructor" }]
    expect(echoesIn(body, sent, new Set())).toEqual(["postalCode (11 chars) repeated at details.errors.0.field"])
  })
})
