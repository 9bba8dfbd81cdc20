import { describe, expect, it } from "@effect/vitest"
import { Duration, Option } from "effect"
import { SandboxUmaSenders, UmaAddressInput } from "@payrail/core"

const behaviorOf = (address: string) => Option.map(UmaAddressInput.normalize(address), SandboxUmaSenders.behaviorOf)

describe("SandboxUmaSenders", () => {
  it("completes the success senders of every currency on both sandbox domains", () => {
    for (const domain of ["sandbox.uma.money", "sandbox.grid.uma.money"]) {
      for (const currency of ["usd", "eur", "mxn"]) {
        expect(behaviorOf(`$success.${currency}@${domain}`)).toEqual(Option.some("SUCCESS"))
      }
      expect(behaviorOf(`$pending.long.usd@${domain}`)).toEqual(Option.some("PENDING_LONG"))
      // Any currency Payrail knows, as the outgoing sandbox addresses read them.
      expect(behaviorOf(`$pending.long.eur@${domain}`)).toEqual(Option.some("PENDING_LONG"))
      expect(behaviorOf(`$fail.compliance.usd@${domain}`)).toEqual(Option.some("FAIL_COMPLIANCE"))
    }
  })

  it("reads addresses case-insensitively and answers them in lowercase", () => {
    expect(UmaAddressInput.normalize("$Pending.Long.USD@Sandbox.UMA.money")).toEqual(
      Option.some("$pending.long.usd@sandbox.uma.money")
    )
    expect(behaviorOf("$FAIL.compliance.usd@sandbox.uma.money")).toEqual(Option.some("FAIL_COMPLIANCE"))
  })

  it("lets any other well-formed sender succeed, magic names on other domains included", () => {
    for (const address of [
      "$alice@uma.example",
      "$fail.compliance.usd@uma.example",
      "$pending.long.xyz@sandbox.uma.money",
      "$a+b_c-d.e@x.y.z"
    ]) {
      expect(behaviorOf(address)).toEqual(Option.some("SUCCESS"))
    }
  })

  it("refuses what is not an UMA address", () => {
    for (const address of [
      "$@uma.example",
      "$alice",
      "$alice@localhost",
      "$al ice@uma.example",
      "$alice@uma..example",
      `$${"a".repeat(65)}@uma.example`,
      "$alice@uma.example ",
      "$ali/ce@uma.example"
    ]) {
      expect(UmaAddressInput.normalize(address)).toEqual(Option.none())
    }
  })

  it("holds a long-pending payment for an hour", () => {
    expect(Duration.toMillis(SandboxUmaSenders.pendingDelay)).toBe(3_600_000)
  })
})
