import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Option, TestClock } from "effect"
import {
  Customers,
  Domain,
  Ids,
  IncomingDecision,
  Platform,
  Platforms,
  SandboxPayments,
  Transactions,
  WebhookSecrets,
  WebhookTransport
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

/** A receiver that answers 200 after `delay` (by the test clock), or never. */
const receiverAnswering = (delay: Option.Option<Duration.Duration>) =>
  Layer.succeed(
    WebhookTransport.WebhookTransport,
    WebhookTransport.fromSend(() =>
      Option.match(delay, {
        onNone: () => Effect.never,
        onSome: (after) =>
          Effect.as(Effect.sleep(after), { status: 200, body: "", latencyMillis: Duration.toMillis(after) })
      })
    )
  )

const services = (delay: Option.Option<Duration.Duration>) =>
  Domain.layer.pipe(
    Layer.provideMerge(StorageMemory.layer),
    Layer.provide(Sandbox.layer),
    Layer.provide(WalletAuth.layerEphemeral),
    Layer.provide(Ids.layerDeterministic),
    Layer.provide(receiverAnswering(delay))
  )

const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  webhookEndpoint: "https://receiver.example/hooks",
  incomingPaymentApproval: true
})

// Receives 100 USD cents for a new customer of a new platform, moving the test clock in half-second steps until
// the request is answered; answers the statuses (as answered, as stored) and how long it took by the clock.
const receiveWhile = () =>
  Effect.gen(function* () {
    const platform = yield* (yield* Platforms.Platforms).create({ name: "Window", environment: "SANDBOX", config })
    yield* (yield* WebhookSecrets.WebhookSecrets).rotate(platform.id)
    const customer = yield* (yield* Customers.Customers).create(platform, {
      customerType: "INDIVIDUAL",
      fullName: "Ada Lovelace"
    })
    const receiving = yield* Effect.fork(
      (yield* SandboxPayments.SandboxPayments).receiveUma(platform, {
        senderUmaAddress: "$success.usd@sandbox.uma.money",
        customerId: customer.id,
        receivingCurrencyCode: "USD",
        receivingCurrencyAmount: 100
      })
    )
    let elapsed = Duration.zero
    while (Option.isNone(yield* Fiber.poll(receiving)) && Duration.lessThan(elapsed, Duration.seconds(30))) {
      // Lets the request reach its next wait before the clock moves.
      for (let turn = 0; turn < 20; turn++) yield* Effect.yieldNow()
      yield* TestClock.adjust("500 millis")
      elapsed = Duration.sum(elapsed, "500 millis")
    }
    const answered = yield* Fiber.join(receiving)
    const stored = yield* (yield* Transactions.Transactions).get(platform, answered.id)
    return [answered.status, stored.status, Duration.toMillis(elapsed)]
  })

/*
 * The reply window of a held incoming payment's webhook, on the test clock: a reply within 5 seconds decides it
 * before the sender's request is answered; with no reply the request is answered at 5 seconds, still PENDING.
 */
describe("IncomingApprovals: the webhook reply window", () => {
  it.effect("approves on a 200 that arrives within the window", () =>
    receiveWhile().pipe(
      Effect.map(([answered, stored, elapsed]) => {
        expect([answered, stored]).toEqual(["COMPLETED", "COMPLETED"])
        expect(elapsed).toBeLessThanOrEqual(5_000)
      }),
      Effect.provide(services(Option.some(Duration.seconds(4))))
    )
  )

  it.effect("gives up at the window's end when the receiver does not answer, leaving the payment PENDING", () =>
    receiveWhile().pipe(
      Effect.map(([answered, stored, elapsed]) => {
        expect([answered, stored]).toEqual(["PENDING", "PENDING"])
        expect(elapsed).toBeGreaterThanOrEqual(Duration.toMillis(IncomingDecision.replyWindow))
        expect(elapsed).toBeLessThanOrEqual(6_000)
      }),
      Effect.provide(services(Option.none()))
    )
  )

  it.effect("ignores a 200 that would come after the window", () =>
    receiveWhile().pipe(
      Effect.map(([answered, stored, elapsed]) => {
        expect([answered, stored]).toEqual(["PENDING", "PENDING"])
        expect(elapsed).toBeLessThanOrEqual(6_000)
      }),
      Effect.provide(services(Option.some(Duration.seconds(6))))
    )
  )
})
