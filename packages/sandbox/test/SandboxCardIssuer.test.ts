import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Encoding } from "effect"
import { Card, CardIssuer, Platform, Platforms } from "@payrail/core"
import { SandboxCardIssuer } from "@payrail/sandbox"

const platform = new Platform.Platform({
  id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
  name: "p",
  environment: "SANDBOX",
  config: Platforms.defaultConfig,
  createdAt: DateTime.unsafeMake(0),
  updatedAt: DateTime.unsafeMake(0)
})

// Deterministic secrets that still cover the range of 128-bit values.
const secretOf = (index: number) =>
  Encoding.encodeHex(Uint8Array.from({ length: 16 }, (_, byte) => (index * 131 + byte * 29 + (index >> byte)) & 0xff))

const issuedAt = DateTime.unsafeMake("2026-03-15T12:00:00Z")

const issue = (secret: string, platformCustomerId?: string) =>
  Effect.flatMap(CardIssuer.CardIssuer, (issuer) =>
    issuer.issue({
      platform,
      cardId: "Card:7d1c1c2e-2b7a-4f5e-9a41-0c3d5e6f7a8b",
      customerId: "Customer:00000000-0000-4000-8000-000000000002",
      platformCustomerId,
      currency: "USD",
      secret,
      issuedAt
    })
  ).pipe(Effect.provide(SandboxCardIssuer.layer))

describe("SandboxCardIssuer", () => {
  it.effect("issues Visa test numbers that start with the BIN, pass Luhn, and match last4; CVCs have 3 digits", () =>
    Effect.gen(function* () {
      const issuer = yield* Effect.provide(CardIssuer.CardIssuer, SandboxCardIssuer.layer)
      for (let index = 0; index < 200; index++) {
        const secret = secretOf(index)
        const issued = yield* issue(secret)
        const card = new Card.Card({
          id: Card.CardId.make("Card:7d1c1c2e-2b7a-4f5e-9a41-0c3d5e6f7a8b"),
          customerId: "Customer:00000000-0000-4000-8000-000000000002",
          status: "ACTIVE",
          form: "VIRTUAL",
          currency: "USD",
          platformCardId: "7d1c1c2e-2b7a-4f5e-9a41-0c3d5e6f7a8b",
          createdAt: issuedAt,
          updatedAt: issuedAt,
          ...issued.details
        })
        const details = yield* issuer.sensitiveDetails({
          platformId: platform.id,
          card,
          version: 1,
          issuerSecret: issued.issuerSecret
        })
        expect(details.pan).toMatch(/^400000[0-9]{10}$/)
        expect(SandboxCardIssuer.passesLuhn(details.pan)).toBe(true)
        expect(details.pan.slice(-4)).toBe(issued.details.last4)
        expect(details.cvc).toMatch(/^[0-9]{3}$/)
        expect(details).toMatchObject({ brand: "VISA", expMonth: 3, expYear: 2029 })
        // The public references carry nothing of the secret the number and CVC come from.
        for (const ref of [issued.details.issuerRef, issued.details.processorRef]) {
          expect(ref.includes(secret.slice(0, 8))).toBe(false)
          expect(ref.includes(secret.slice(-8))).toBe(false)
        }
      }
    })
  )

  it("checks Luhn as the card networks do", () => {
    expect(SandboxCardIssuer.passesLuhn("4242424242424242")).toBe(true)
    expect(SandboxCardIssuer.passesLuhn("4000056655665556")).toBe(true)
    expect(SandboxCardIssuer.passesLuhn("4242424242424241")).toBe(false)
    expect(SandboxCardIssuer.luhnCheckDigit("400000000000000")).toBe("2")
  })

  it.effect("provisions by the platformCustomerId suffix: 001 stays, 002 rejected, 005 after 30 s, else at once", () =>
    Effect.gen(function* () {
      const secret = secretOf(1)
      expect((yield* issue(secret, "cust-001")).provisioning).toEqual({ _tag: "StayProcessing" })
      expect((yield* issue(secret, "cust-002")).provisioning).toEqual({ _tag: "Reject" })
      const delayed = (yield* issue(secret, "cust-005")).provisioning
      expect(delayed._tag === "Activate" && Duration.toSeconds(delayed.delay)).toBe(30)
      for (const other of ["cust-003", "cust-900", undefined]) {
        const provisioning = (yield* issue(secret, other)).provisioning
        expect(provisioning._tag === "Activate" && Duration.toMillis(provisioning.delay)).toBe(0)
      }
    })
  )
})
