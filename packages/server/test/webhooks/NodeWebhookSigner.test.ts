import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { Webhook } from "standardwebhooks"
import { Ids, WebhookSecret, WebhookSignature } from "@payrail/core"
import * as NodeWebhookSigner from "../../src/webhooks/NodeWebhookSigner.js"

const body = JSON.stringify({ id: "Webhook:7", type: "OUTGOING_PAYMENT", data: { amount: 1_000, note: "ünïcödé ✓" } })
// standardwebhooks refuses timestamps more than 5 minutes from its own clock: sign at the real time.
const content = () => ({ id: "Webhook:7", timestampSeconds: Math.floor(Date.now() / 1000), body })

describe("NodeWebhookSigner", () => {
  it.effect("signs exactly as the WebCrypto signer does, for none, one or two secrets, skipping non-whsec text", () =>
    Effect.gen(function* () {
      const signer = NodeWebhookSigner.make()
      const first = yield* WebhookSecret.generate
      const second = yield* WebhookSecret.generate
      const junk = Redacted.make("not-a-secret")
      const signed = content()
      for (const secrets of [[], [first], [second, first], [junk, first]]) {
        expect(yield* signer.headers(secrets, signed)).toEqual(yield* WebhookSignature.headers(secrets, signed))
      }
      // A second use of a kept key signs the same.
      expect(yield* signer.headers([first], signed)).toEqual(yield* WebhookSignature.headers([first], signed))
    }).pipe(Effect.provide(Ids.layer))
  )

  it.effect("is verified by the standardwebhooks library with either secret during a rotation", () =>
    Effect.gen(function* () {
      const signer = NodeWebhookSigner.make()
      const old = yield* WebhookSecret.generate
      const fresh = yield* WebhookSecret.generate
      const headers = yield* signer.headers([fresh, old], content())
      for (const secret of [fresh, old]) {
        expect(new Webhook(Redacted.value(secret)).verify(body, headers)).toMatchObject({ id: "Webhook:7" })
      }
      expect(() => new Webhook(Redacted.value(old)).verify(body.replace("1000", "1001"), headers)).toThrow()
    }).pipe(Effect.provide(Ids.layer))
  )

  it.effect("forgets the least recently used key past its capacity and still signs right", () =>
    Effect.gen(function* () {
      const signer = NodeWebhookSigner.make(2)
      const secrets = [yield* WebhookSecret.generate, yield* WebhookSecret.generate, yield* WebhookSecret.generate]
      const signed = content()
      for (const secret of [...secrets, ...secrets]) {
        expect(yield* signer.headers([secret], signed)).toEqual(yield* WebhookSignature.headers([secret], signed))
      }
    }).pipe(Effect.provide(Ids.layer))
  )
})
