import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { AgentDeviceCodes, AgentToken, Ids } from "@payrail/core"

describe("AgentDeviceCodes", () => {
  it.effect("generates PAYRAIL-AGENT-XXXX-XXXX-XXXX in Crockford's base32, a new one each time", () =>
    Effect.gen(function* () {
      const codes = yield* Effect.replicateEffect(AgentDeviceCodes.generate, 50)
      for (const code of codes) {
        expect(code).toMatch(/^PAYRAIL-AGENT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
        expect(AgentDeviceCodes.normalise(code)).toEqual(Option.some(code))
      }
      expect(new Set(codes).size).toBe(50)
    }).pipe(Effect.provide(Ids.layer))
  )

  it("reads a typed code forgivingly: trimmed, any case, O as 0, I and L as 1 after the prefix", () => {
    expect(AgentDeviceCodes.normalise("  payrail-agent-x7k9-m2p4-h8qz ")).toEqual(
      Option.some("PAYRAIL-AGENT-X7K9-M2P4-H8QZ")
    )
    expect(AgentDeviceCodes.normalise("PAYRAIL-AGENT-OOIL-o1l0-ABCD")).toEqual(
      Option.some("PAYRAIL-AGENT-0011-0110-ABCD")
    )
  })

  it("is none for what cannot be a code", () => {
    for (const typed of [
      "",
      "GRID-AGENT-X7K9-M2P4",
      "PAYRAIL-AGENT-X7K9-M2P4",
      "PAYRAIL-AGENT-U7K9-M2P4-H8QZ",
      `PAYRAIL-AGENT-${"A".repeat(80)}`
    ]) {
      expect(AgentDeviceCodes.normalise(typed)).toEqual(Option.none())
    }
  })
})

describe("AgentToken", () => {
  it.effect("issues gat_ and 40 lowercase hex digits with its SHA-256, and recognises the form", () =>
    Effect.gen(function* () {
      const issued = yield* AgentToken.issue
      expect(issued.token).toMatch(/^gat_[0-9a-f]{40}$/)
      expect(issued.hash).toMatch(/^[0-9a-f]{64}$/)
      expect(issued.hash).toBe(yield* AgentToken.hash(issued.token))
      expect(AgentToken.isWellFormed(issued.token)).toBe(true)
      expect(AgentToken.isWellFormed(issued.token.toUpperCase())).toBe(false)
      expect(AgentToken.isWellFormed(`${issued.token}0`)).toBe(false)
    }).pipe(Effect.provide(Ids.layer))
  )
})
