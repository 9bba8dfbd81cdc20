import { describe, expect, it } from "@effect/vitest"
import { DateTime, Deferred, Duration, Effect, Either, Layer, Option, Redacted, Ref, TestClock } from "effect"
import {
  Domain,
  DomainEvent,
  Ids,
  Outbox,
  Platform,
  Platforms,
  WebhookDeliveries,
  WebhookDeliveryRepo,
  WebhookDispatch,
  WebhookRetrySchedule,
  WebhookSecretRepo,
  WebhookSecrets,
  WebhookSignature,
  WebhookTransport
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

/** A receiver script: each send takes the next answer (the last one repeats) and is recorded. */
type Answer = number | WebhookTransport.FailureKind

const scripted = (answers: ReadonlyArray<Answer>) =>
  Effect.gen(function* () {
    const sent = yield* Ref.make<ReadonlyArray<WebhookTransport.WebhookRequest>>([])
    const transport = Layer.succeed(
      WebhookTransport.WebhookTransport,
      WebhookTransport.fromSend((request) =>
        Effect.gen(function* () {
          const index = (yield* Ref.getAndUpdate(sent, (all) => [...all, request])).length
          const answer = answers[Math.min(index, answers.length - 1)] ?? 200
          if (typeof answer === "string") {
            return yield* new WebhookTransport.WebhookSendFailed({ kind: answer, message: "scripted" })
          }
          return { status: answer, latencyMillis: 12, body: `answer ${answer}` }
        })
      )
    )
    return { sent, transport }
  })

const services = (transport: Layer.Layer<WebhookTransport.WebhookTransport>) =>
  Domain.layer.pipe(
    Layer.provide(transport),
    Layer.provideMerge(StorageMemory.layer),
    Layer.provide(Sandbox.layer),
    Layer.provide(WalletAuth.layerEphemeral),
    Layer.provideMerge(Ids.layerDeterministic)
  )

const start = Date.UTC(2026, 4, 1, 12)

const withEndpoint = (url: string | undefined, environment: Platform.Environment = "SANDBOX") =>
  Effect.gen(function* () {
    const platforms = yield* Platforms.Platforms
    const config = new Platform.PlatformConfig({
      ...Platforms.defaultConfig,
      ...(url === undefined ? {} : { webhookEndpoint: url })
    })
    const platform = yield* platforms.create({ name: "Hooks", environment, config })
    yield* (yield* WebhookSecrets.WebhookSecrets).rotate(platform.id)
    return platform
  })

const appendEvent = (platform: Platform.Platform) =>
  Effect.gen(function* () {
    const event = yield* DomainEvent.make(platform.id, "CUSTOMER.KYC_APPROVED", { id: "Customer:1" })
    yield* (yield* Outbox.Outbox).append(event)
    return event
  })

const run = <A, E>(
  answers: ReadonlyArray<Answer>,
  test: (
    sent: Ref.Ref<ReadonlyArray<WebhookTransport.WebhookRequest>>
  ) => Effect.Effect<A, E, Domain.Services | Outbox.Outbox | WebhookSecretRepo.WebhookSecretRepo | Ids.Ids>
) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(start)
    const { sent, transport } = yield* scripted(answers)
    return yield* test(sent).pipe(Effect.provide(services(transport)))
  })

describe("WebhookRetrySchedule", () => {
  it.effect("backs off exponentially from about 5 s with jitter, never waiting more than 30 minutes", () =>
    Effect.gen(function* () {
      for (let attempts = 1; attempts <= 9; attempts++) {
        const seconds = Duration.toSeconds(yield* WebhookRetrySchedule.delayAfter(attempts))
        const nominal = 5 * 2 ** (attempts - 1)
        expect(seconds, `after attempt ${attempts}`).toBeGreaterThanOrEqual(Math.min(nominal * 0.8, 1800))
        expect(seconds, `after attempt ${attempts}`).toBeLessThanOrEqual(Math.min(nominal * 1.2, 1800))
      }
      for (const attempts of [10, 20, 400]) {
        expect(Duration.toMinutes(yield* WebhookRetrySchedule.delayAfter(attempts))).toBe(30)
      }
    })
  )
})

describe("WebhookDispatch.attempt", () => {
  it.effect("attemptAll reads a batch's sources once and records the answers that come together in one write", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      // A receiver that answers once all 12 webhooks have arrived, so the attempts finish together.
      const sent = yield* Ref.make<ReadonlyArray<WebhookTransport.WebhookRequest>>([])
      const allArrived = yield* Deferred.make<void>()
      const transport = Layer.succeed(
        WebhookTransport.WebhookTransport,
        WebhookTransport.fromSend((request) =>
          Effect.gen(function* () {
            const arrived = yield* Ref.updateAndGet(sent, (all) => [...all, request])
            if (arrived.length === 12) yield* Deferred.succeed(allArrived, undefined)
            yield* Deferred.await(allArrived)
            return { status: 200, latencyMillis: 1, body: "" }
          })
        )
      )
      // The memory repository, counting the requests in each call of its batch methods.
      const batches = { sources: [] as Array<number>, recorded: [] as Array<number> }
      const counting = Layer.effect(
        WebhookDeliveryRepo.WebhookDeliveryRepo,
        Effect.map(WebhookDeliveryRepo.WebhookDeliveryRepo, (repo) => ({
          ...repo,
          sources: (requests) =>
            Effect.zipRight(
              Effect.sync(() => batches.sources.push(requests.length)),
              repo.sources(requests)
            ),
          recordAll: (attempts) =>
            Effect.zipRight(
              Effect.sync(() => batches.recorded.push(attempts.length)),
              repo.recordAll(attempts)
            )
        }))
      )
      const layer = Domain.layer.pipe(
        Layer.provide(counting),
        Layer.provide(transport),
        Layer.provideMerge(StorageMemory.layer),
        Layer.provide(Sandbox.layer),
        Layer.provide(WalletAuth.layerEphemeral),
        Layer.provideMerge(Ids.layerDeterministic)
      )
      yield* Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const platform = yield* withEndpoint("https://receiver.example/hooks")
        const events = yield* Effect.forEach(Array.from({ length: 12 }), () => appendEvent(platform))
        const reported: Array<WebhookDispatch.IndexedOutcome> = []
        const [first, ...rest] = events.map((event) => event.id)
        if (first === undefined) return yield* Effect.dieMessage("no events")
        yield* dispatch.attemptAll([first, ...rest], (outcomes) => Effect.sync(() => reported.push(...outcomes)))
        // One outcome per event, each at its index.
        expect(reported.map(({ index }) => index).sort((a, b) => a - b)).toEqual(events.map((_, index) => index))
        expect(reported.map(({ outcome }) => (Either.isRight(outcome) ? outcome.right._tag : "Left"))).toEqual(
          events.map(() => "Delivered")
        )
        expect((yield* Ref.get(sent)).map((request) => request.headers["webhook-id"]).sort()).toEqual(
          events.map((event) => event.id).sort()
        )
        // Each of the 12 was read in one call and recorded once, the answers that came together in one call.
        expect(batches.sources).toEqual([12])
        expect(batches.recorded.reduce((sum, size) => sum + size, 0)).toBe(12)
        expect(batches.recorded.length).toBeLessThanOrEqual(2)
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("retries a 500 at the scheduled time and delivers on the 200 that follows, once", () =>
    run([500, 200], (sent) =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const platform = yield* withEndpoint("https://receiver.example/hooks")
        const event = yield* appendEvent(platform)

        const first = yield* dispatch.attempt(event.id)
        if (first._tag !== "RetryAt") return expect.fail(`expected a retry, got ${first._tag}`)
        const waitMillis = DateTime.toEpochMillis(first.at) - start
        expect(waitMillis).toBeGreaterThanOrEqual(4_000)
        expect(waitMillis).toBeLessThanOrEqual(6_000)
        expect(first.delivery).toMatchObject({
          status: "FAILED",
          attempts: 1,
          lastResponseStatus: 500,
          lastLatencyMillis: 12,
          eventId: event.id,
          eventType: "CUSTOMER.KYC_APPROVED",
          url: "https://receiver.example/hooks"
        })
        const deliveries = yield* WebhookDeliveries.WebhookDeliveries
        expect(yield* deliveries.get(platform.id, first.delivery.id)).toEqual(first.delivery)

        yield* TestClock.setTime(first.at)
        const second = yield* dispatch.attempt(event.id)
        expect(second._tag).toBe("Delivered")
        const stored = yield* deliveries.get(platform.id, first.delivery.id)
        expect(stored).toMatchObject({ status: "DELIVERED", attempts: 2, lastResponseStatus: 200 })
        expect(stored.nextAttemptAt).toBeUndefined()
        expect(DateTime.toEpochMillis(stored.lastAttemptAt!)).toBe(DateTime.toEpochMillis(first.at))

        // A re-run of a finished job sends nothing.
        expect(yield* dispatch.attempt(event.id)).toEqual({ _tag: "NothingToDo", reason: "settled" })
        expect((yield* Ref.get(sent)).length).toBe(2)
      })
    )
  )

  it.effect("treats a 409 as delivered (the receiver has it) and does not retry", () =>
    run([409], (sent) =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const event = yield* appendEvent(yield* withEndpoint("https://receiver.example/hooks"))
        const outcome = yield* dispatch.attempt(event.id)
        expect(outcome).toMatchObject({ _tag: "Delivered", delivery: { status: "DELIVERED", lastResponseStatus: 409 } })
        expect(yield* dispatch.attempt(event.id)).toEqual({ _tag: "NothingToDo", reason: "settled" })
        expect((yield* Ref.get(sent)).length).toBe(1)
      })
    )
  )

  it.effect("records a failure without an answer (timeout) and retries it", () =>
    run(["timeout"], () =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const event = yield* appendEvent(yield* withEndpoint("https://receiver.example/hooks"))
        const outcome = yield* dispatch.attempt(event.id)
        expect(outcome._tag).toBe("RetryAt")
        if (outcome._tag !== "RetryAt") return
        expect(outcome.delivery.lastError).toBe("timeout: scripted")
        expect(outcome.delivery.lastResponseStatus).toBeUndefined()
      })
    )
  )

  it.effect("gives up (DEAD) once the next try would fall more than 7 days after the first", () =>
    run([503], (sent) =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const event = yield* appendEvent(yield* withEndpoint("https://receiver.example/hooks"))
        let outcome = yield* dispatch.attempt(event.id)
        const waits: Array<number> = []
        let previous = start
        while (outcome._tag === "RetryAt") {
          const at = DateTime.toEpochMillis(outcome.at)
          waits.push(at - previous)
          previous = at
          yield* TestClock.setTime(at)
          outcome = yield* dispatch.attempt(event.id)
        }
        expect(outcome._tag).toBe("GaveUp")
        if (outcome._tag !== "GaveUp") return
        expect(outcome.delivery.status).toBe("DEAD")
        expect(Math.max(...waits)).toBeLessThanOrEqual(30 * 60_000)
        const sevenDays = 7 * 24 * 3_600_000
        expect(previous - start).toBeLessThanOrEqual(sevenDays)
        expect(previous - start).toBeGreaterThan(sevenDays - 30 * 60_000)
        expect((yield* Ref.get(sent)).length).toBe(outcome.delivery.attempts)
        expect(yield* dispatch.attempt(event.id)).toEqual({ _tag: "NothingToDo", reason: "settled" })
      })
    )
  )

  it.effect("signs the envelope with the platform's secrets at the Clock's time", () =>
    run([200], (sent) =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const platform = yield* withEndpoint("https://receiver.example/hooks")
        const event = yield* appendEvent(platform)
        yield* dispatch.attempt(event.id)
        const [request] = yield* Ref.get(sent)
        expect(JSON.parse(request!.body)).toEqual({
          id: event.id,
          type: "CUSTOMER.KYC_APPROVED",
          timestamp: "2026-05-01T12:00:00.000Z",
          data: { id: "Customer:1" }
        })
        expect(request!.environment).toBe("SANDBOX")
        expect(request!.headers["webhook-id"]).toBe(event.id)
        expect(request!.headers["webhook-timestamp"]).toBe(String(start / 1000))
        const active = yield* (yield* WebhookSecretRepo.WebhookSecretRepo).active(
          platform.id,
          DateTime.unsafeMake(start)
        )
        const expected = yield* WebhookSignature.signature(
          active.map((secret) => secret.secret),
          { id: event.id, timestampSeconds: start / 1000, body: request!.body }
        )
        expect(request!.headers["webhook-signature"]).toBe(expected)
      })
    )
  )

  it.effect(
    "does nothing without an endpoint or for an unknown event, and fails unsigned attempts without sending",
    () =>
      run([200], (sent) =>
        Effect.gen(function* () {
          const dispatch = yield* WebhookDispatch.WebhookDispatch
          const silent = yield* appendEvent(yield* withEndpoint(undefined))
          expect(yield* dispatch.attempt(silent.id)).toEqual({ _tag: "NothingToDo", reason: "no_endpoint" })
          const unknown = DomainEvent.EventId.make("Webhook:00000000-0000-4000-8000-00000000ffff")
          expect(yield* dispatch.attempt(unknown)).toEqual({ _tag: "NothingToDo", reason: "event_not_found" })

          const platforms = yield* Platforms.Platforms
          const unsigned = yield* platforms.create({
            name: "No secret",
            environment: "SANDBOX",
            config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, webhookEndpoint: "https://r.example/" })
          })
          const outcome = yield* dispatch.attempt((yield* appendEvent(unsigned)).id)
          expect(outcome).toMatchObject({ _tag: "RetryAt", delivery: { status: "FAILED" } })
          if (outcome._tag === "RetryAt") expect(outcome.delivery.lastError).toMatch(/^no_signing_secret/)
          expect((yield* Ref.get(sent)).length).toBe(0)
        })
      )
  )

  it.effect("sends a delivered event again after a manual redelivery", () =>
    run([200], (sent) =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const deliveries = yield* WebhookDeliveries.WebhookDeliveries
        const platform = yield* withEndpoint("https://receiver.example/hooks")
        const event = yield* appendEvent(platform)
        const delivered = yield* dispatch.attempt(event.id)
        if (delivered._tag !== "Delivered") return expect.fail(delivered._tag)
        yield* TestClock.adjust(Duration.minutes(5))
        const pending = yield* deliveries.redeliver(platform.id, delivered.delivery.id)
        expect(pending).toMatchObject({ status: "PENDING", attempts: 1 })
        expect(DateTime.toEpochMillis(pending.retriesSince)).toBe(start + 300_000)
        expect(yield* deliveries.redeliver(platform.id, delivered.delivery.id)).toEqual(pending)
        expect((yield* dispatch.attempt(event.id))._tag).toBe("Delivered")
        expect((yield* Ref.get(sent)).length).toBe(2)
      })
    )
  )
})

describe("WebhookDispatch.sendTest", () => {
  it.effect("sends an unsigned-data TEST to the endpoint or the given url and answers the receiver's reply", () =>
    run([200], (sent) =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const platform = yield* withEndpoint("https://receiver.example/hooks")
        const outcome = yield* dispatch.sendTest(platform, Option.none())
        expect(outcome).toEqual({
          url: "https://receiver.example/hooks",
          responseStatus: 200,
          responseBody: "answer 200"
        })
        const other = yield* dispatch.sendTest(platform, Option.some("https://elsewhere.example/"))
        expect(other.url).toBe("https://elsewhere.example/")
        const bodies = (yield* Ref.get(sent)).map((request) => JSON.parse(request.body))
        expect(bodies[0]).toEqual({
          id: expect.stringMatching(/^Webhook:/),
          type: "TEST",
          timestamp: "2026-05-01T12:00:00.000Z"
        })
        expect(bodies[0]).not.toHaveProperty("data")
        expect(
          (yield* (yield* WebhookDeliveries.WebhookDeliveries).list(
            platform.id,
            {},
            { limit: 20, after: Option.none() }
          )).totalCount
        ).toBe(0)
      })
    )
  )

  it.effect("fails with WEBHOOK_ENDPOINT_NOT_SET, WEBHOOK_DELIVERY_ERROR and FORBIDDEN for production", () =>
    run(["connection_failed"], () =>
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        const none = yield* withEndpoint(undefined)
        expect((yield* Effect.flip(dispatch.sendTest(none, Option.none()))).code).toBe("WEBHOOK_ENDPOINT_NOT_SET")
        const failing = yield* Effect.flip(dispatch.sendTest(none, Option.some("https://down.example/")))
        expect(failing).toMatchObject({
          code: "WEBHOOK_DELIVERY_ERROR",
          details: { url: "https://down.example/", kind: "connection_failed" }
        })
        const production = yield* withEndpoint("https://receiver.example/", "PRODUCTION")
        expect((yield* Effect.flip(dispatch.sendTest(production, Option.none()))).code).toBe("FORBIDDEN")
      })
    )
  )
})

describe("WebhookSecrets.rotate", () => {
  it.effect("keeps the previous secret signing for the configured overlap only", () =>
    run(
      [200],
      () =>
        Effect.gen(function* () {
          const platform = yield* withEndpoint("https://receiver.example/hooks")
          const repo = yield* WebhookSecretRepo.WebhookSecretRepo
          const [first] = yield* repo.active(platform.id, DateTime.unsafeMake(start))
          const issued = yield* (yield* WebhookSecrets.WebhookSecrets).rotate(platform.id)
          expect(DateTime.toEpochMillis(issued.previousExpiresAt)).toBe(start + 3_600_000)
          const during = yield* repo.active(platform.id, DateTime.unsafeMake(start + 3_599_000))
          expect(during.map((secret) => Redacted.value(secret.secret))).toEqual([
            Redacted.value(issued.secret),
            Redacted.value(first!.secret)
          ])
          const after = yield* repo.active(platform.id, DateTime.unsafeMake(start + 3_600_000))
          expect(after.map((secret) => Redacted.value(secret.secret))).toEqual([Redacted.value(issued.secret)])
        })
      // Provided where the domain's layers are built, as the reference server provides it.
    ).pipe(Effect.provideService(WebhookSecrets.WebhookSecretOverlap, Duration.hours(1)))
  )
})
