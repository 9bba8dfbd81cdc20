import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { Webhook } from "standardwebhooks"
import { Ids, WebhookSecret, WebhookSignature } from "@payrail/core"

const body = JSON.stringify({ id: "Webhook:1", type: "CUSTOMER.KYC_APPROVED", timestamp: "2026-01-01T00:00:00.000Z" })
// standardwebhooks refuses timestamps more than 5 minutes from its own clock: sign at the real time.
const content = () => ({ id: "Webhook:1", timestampSeconds: Math.floor(Date.now() / 1000), body })

const verifies = (secret: Redacted.Redacted<string>, headers: Record<string, string>, payload = body): boolean => {
  try {
    new Webhook(Redacted.value(secret)).verify(payload, headers)
    return true
  } catch {
    return false
  }
}

describe("webhook signing (Standard Webhooks)", () => {
  it.effect("issues whsec_ secrets of 32 random bytes in standard base64", () =>
    Effect.gen(function* () {
      const secret = yield* WebhookSecret.generate
      expect(Redacted.value(secret)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(String(secret)).not.toContain("whsec_")
      const other = yield* WebhookSecret.generate
      expect(Redacted.value(other)).not.toBe(Redacted.value(secret))
    }).pipe(Effect.provide(Ids.layer))
  )

  it.effect("signs so that the standardwebhooks library verifies, and refuses a changed body or id", () =>
    Effect.gen(function* () {
      const secret = yield* WebhookSecret.generate
      const headers = yield* WebhookSignature.headers([secret], content())
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
      expect(verifies(secret, headers)).toBe(true)
      expect(verifies(secret, headers, body.replace("KYC", "KYB"))).toBe(false)
      expect(verifies(secret, { ...headers, "webhook-id": "Webhook:2" })).toBe(false)
      expect(verifies(yield* WebhookSecret.generate, headers)).toBe(false)
    }).pipe(Effect.provide(Ids.layer))
  )

  it.effect("sends both signatures during a rotation, each verifying with its secret alone", () =>
    Effect.gen(function* () {
      const current = yield* WebhookSecret.generate
      const previous = yield* WebhookSecret.generate
      const headers = yield* WebhookSignature.headers([current, previous], content())
      expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/)
      expect(verifies(current, headers)).toBe(true)
      expect(verifies(previous, headers)).toBe(true)
      expect(verifies(yield* WebhookSecret.generate, headers)).toBe(false)
    }).pipe(Effect.provide(Ids.layer))
  )

  it("reads the key of a whsec_ secret and nothing else", () => {
    expect(WebhookSecret.keyOf(Redacted.make("whsec_AAEC")).pipe((key) => key._tag)).toBe("Some")
    expect(WebhookSecret.keyOf(Redacted.make("AAEC"))._tag).toBe("None")
    expect(WebhookSecret.keyOf(Redacted.make("whsec_"))._tag).toBe("None")
    expect(WebhookSecret.keyOf(Redacted.make("whsec_!!!"))._tag).toBe("None")
  })
})
