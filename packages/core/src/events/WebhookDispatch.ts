import {
  type Array as Arr,
  Chunk,
  Context,
  DateTime,
  Effect,
  Either,
  Fiber,
  Layer,
  Option,
  Queue,
  type Redacted
} from "effect"
import { DomainEvent, Ids, Outbox, PlatformTime, ResourceId, type StoreFailure } from "../kernel/index.js"
import { type Platform, PlatformErrors } from "../platforms/index.js"
import {
  type Expected,
  expectedOf,
  type Fields,
  isSettled,
  pendingFields,
  WebhookDelivery,
  WebhookDeliveryId
} from "./WebhookDelivery.js"
import { type Endpoint, WebhookDeliveryRepo } from "./WebhookDeliveryRepo.js"
import * as WebhookEnvelope from "./WebhookEnvelope.js"
import { WebhookDeliveryError, WebhookEndpointNotSet } from "./WebhookErrors.js"
import * as WebhookRetrySchedule from "./WebhookRetrySchedule.js"
import { WebhookSecretRepo } from "./WebhookSecretRepo.js"
import * as WebhookSignature from "./WebhookSignature.js"
import { WebhookSigner } from "./WebhookSigner.js"
import {
  type Answer,
  notConfigured,
  type WebhookRequest,
  type WebhookResponse,
  type WebhookSendFailed,
  WebhookTransport
} from "./WebhookTransport.js"

/** What one delivery attempt came to; the delivery job settles itself from it. */
export type AttemptOutcome =
  | {
      readonly _tag: "NothingToDo"
      /**
       * `event_not_found`: no such event in the outbox; `no_endpoint`: the platform has no `webhookEndpoint` (the
       * event is not delivered, and setting an endpoint later does not replay it); `settled`: the delivery is already
       * `DELIVERED` or `DEAD` (a re-run of a finished job); `superseded`: a concurrent attempt recorded first.
       */
      readonly reason: "event_not_found" | "no_endpoint" | "settled" | "superseded"
    }
  | { readonly _tag: "Delivered"; readonly delivery: WebhookDelivery }
  | { readonly _tag: "RetryAt"; readonly delivery: WebhookDelivery; readonly at: DateTime.Utc }
  | { readonly _tag: "GaveUp"; readonly delivery: WebhookDelivery }

/** The outcome of the attempt of the event at `index` of `attemptAll`'s events. */
export interface IndexedOutcome {
  readonly index: number
  readonly outcome: Either.Either<AttemptOutcome, StoreFailure.StoreFailure>
}

/** What a test webhook came to: the receiver's answer. */
export interface TestOutcome {
  readonly url: string
  readonly responseStatus: number
  readonly responseBody: string
}

/** Whether an answer means the receiver has the event: any 2xx, or 409 (it had it already). */
export const isDelivered = (status: number): boolean => (status >= 200 && status < 300) || status === 409

/** Sends webhooks: the attempts of outbox events' deliveries, and the sandbox's test webhook. */
export class WebhookDispatch extends Context.Tag("@payrail/core/WebhookDispatch")<
  WebhookDispatch,
  {
    /**
     * One delivery attempt of the outbox event `eventId` to its platform's `webhookEndpoint`: signs the envelope
     * with every active secret, sends it and records the outcome in the event's delivery (one per event and endpoint
     * URL, stored with its first attempt). A 2xx or 409 is `DELIVERED`; anything else, a timeout or a connection
     * failure is `FAILED` with the next attempt time from `WebhookRetrySchedule`, or `DEAD` past its retry window.
     * Idempotent: a settled delivery is not sent again. `attemptAll` runs many at once with shared statements.
     */
    readonly attempt: (eventId: DomainEvent.EventId) => Effect.Effect<AttemptOutcome, StoreFailure.StoreFailure>
    /**
     * `attempt` of each event at once, in the calling fiber: the sources in one read, every send at the same time,
     * and the outcomes recorded (one statement each time) as the answers come, each group then passed to `onOutcomes`
     * by index in `eventIds` (a slow receiver holds back only the events sent to it). Every event gets exactly one
     * outcome, `Left` when the store failed for it.
     */
    readonly attemptAll: (
      eventIds: Arr.NonEmptyReadonlyArray<DomainEvent.EventId>,
      onOutcomes: (outcomes: ReadonlyArray<IndexedOutcome>) => Effect.Effect<void>
    ) => Effect.Effect<void>
    /**
     * Sends a signed `TEST` webhook (no `data`) to `url`, or else to the platform's endpoint, once and at once, and
     * answers the receiver's status and body. Sandbox platforms only; never retried and not logged.
     */
    /**
     * Sends a signed `TEST` webhook to `url` once and answers the receiver's reply, for a platform of either
     * environment (the transport applies the platform's address policy): the one sent when an endpoint is configured.
     */
    readonly sendTestTo: (
      platform: Platform.Platform,
      url: string
    ) => Effect.Effect<TestOutcome, WebhookDeliveryError | StoreFailure.StoreFailure>
    readonly sendTest: (
      platform: Platform.Platform,
      url: Option.Option<string>
    ) => Effect.Effect<
      TestOutcome,
      WebhookEndpointNotSet | WebhookDeliveryError | PlatformErrors.SandboxOnly | StoreFailure.StoreFailure
    >
    /**
     * Sends `event` (not stored in the outbox) as a signed webhook to `url` once and at once, and answers the
     * receiver's reply, with its latency: for a webhook whose reply decides something (a held incoming payment's
     * `INCOMING_PAYMENT`). Never retried and not logged; the transport applies the platform's address policy.
     */
    readonly sendEvent: (
      platform: Platform.Platform,
      url: string,
      event: DomainEvent.DomainEvent
    ) => Effect.Effect<
      TestOutcome & { readonly latencyMillis: number },
      WebhookDeliveryError | StoreFailure.StoreFailure
    >
  }
>() {}

/** Why an attempt got no answer: a transport failure kind, or `no_signing_secret`. */
interface Problem {
  readonly kind: string
  readonly message: string
}

const noSecret: Problem = {
  kind: "no_signing_secret",
  message: "The platform has no webhook signing secret; rotate it to issue one"
}

const problemOf = (failure: WebhookSendFailed): Problem => ({ kind: failure.kind, message: failure.message })

// Deliveries built here come from a stored (decoded) or new delivery's fields and the transport's answer, whose
// types already hold every constraint: they skip the constructor's validation, a noticeable part of an attempt's CPU.
const unchecked = { disableValidation: true } as const

/** The delivery after an attempt at `now` that got `result`, and what the job does next. */
const settle = (
  delivery: Fields,
  result: Either.Either<WebhookResponse, Problem>,
  now: DateTime.Utc
): Effect.Effect<Exclude<AttemptOutcome, { readonly _tag: "NothingToDo" }>> => {
  const attempts = delivery.attempts + 1
  const response = Either.isRight(result) ? result.right : undefined
  // Every field named (no spread of the delivery read): this runs for each delivery of a drain.
  const recorded = (status: WebhookDelivery["status"], nextAttemptAt: DateTime.Utc | undefined) =>
    new WebhookDelivery(
      {
        id: delivery.id,
        platformId: delivery.platformId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        url: delivery.url,
        status,
        attempts,
        lastResponseStatus: response?.status,
        lastLatencyMillis: response?.latencyMillis,
        lastError: Either.isLeft(result) ? `${result.left.kind}: ${result.left.message}` : undefined,
        lastAttemptAt: now,
        nextAttemptAt,
        retriesSince: delivery.retriesSince,
        createdAt: delivery.createdAt,
        updatedAt: now
      },
      unchecked
    )
  if (response !== undefined && isDelivered(response.status)) {
    return Effect.succeed({ _tag: "Delivered", delivery: recorded("DELIVERED", undefined) })
  }
  return Effect.map(
    WebhookRetrySchedule.nextAttemptAt(attempts, now, delivery.retriesSince),
    Option.match({
      onNone: () => ({ _tag: "GaveUp" as const, delivery: recorded("DEAD", undefined) }),
      onSome: (at) => ({ _tag: "RetryAt" as const, delivery: recorded("FAILED", at), at })
    })
  )
}

export const layer = Layer.scoped(
  WebhookDispatch,
  Effect.gen(function* () {
    const secrets = yield* WebhookSecretRepo
    const deliveries = yield* WebhookDeliveryRepo
    const ids = yield* Ids.Ids
    const outbox = yield* Outbox.Outbox
    // A process that provides no transport still opens and logs deliveries; each attempt fails `not_configured`.
    const transport = yield* Effect.serviceOption(WebhookTransport).pipe(
      Effect.flatMap(
        Option.match({
          onSome: Effect.succeed,
          onNone: () => WebhookTransport.pipe(Effect.provide(notConfigured))
        })
      )
    )

    // A runtime's own signer if it brings one (Node's synchronous HMAC in the reference server), else WebCrypto.
    const signer = Option.getOrElse(yield* Effect.serviceOption(WebhookSigner), () => WebhookSignature.makeSigner())

    // The request of `body` to `endpoint`, signed with `active` (newest first, not empty) at `timestampSeconds`.
    const signed = (
      active: ReadonlyArray<Redacted.Redacted<string>>,
      endpoint: Endpoint,
      id: string,
      body: string,
      timestampSeconds: number
    ): Effect.Effect<WebhookRequest> =>
      Effect.map(signer.headers(active, { id, timestampSeconds, body }), (headers) => ({
        url: endpoint.url,
        headers: { ...headers, "content-type": "application/json", "user-agent": "Payrail-Webhooks/1" },
        body,
        environment: endpoint.environment
      }))

    // Receivers compare the signed timestamp with their own clocks: it is real time even when the platform's sandbox
    // clock runs ahead (the envelope's `timestamp` is the platform's time).
    const realSeconds = Effect.map(PlatformTime.realNow, (now) => Math.floor(DateTime.toEpochMillis(now) / 1000))

    // Signs `body` with `active` at the real time now and sends it; `Left` when there is no secret or no answer.
    const signAndSend = (
      active: ReadonlyArray<Redacted.Redacted<string>>,
      endpoint: Endpoint,
      id: string,
      body: string
    ): Effect.Effect<Either.Either<WebhookResponse, Problem>> =>
      active.length === 0
        ? Effect.succeed(Either.left(noSecret))
        : realSeconds.pipe(
            Effect.flatMap((timestampSeconds) => signed(active, endpoint, id, body, timestampSeconds)),
            Effect.flatMap((request) => Effect.either(transport.send(request))),
            Effect.map(Either.mapLeft(problemOf))
          )

    /** A delivery of an `attemptAll` batch that is sent: its event's index in the batch, as read. */
    type Slot = {
      readonly index: number
      /** The delivery as read, or a new one's fields (built once, with the attempt's outcome). */
      readonly delivery: Fields
      readonly expected: Option.Option<Expected>
    }

    const attemptAll = (
      eventIds: Arr.NonEmptyReadonlyArray<DomainEvent.EventId>,
      onOutcomes: (outcomes: ReadonlyArray<IndexedOutcome>) => Effect.Effect<void>
    ): Effect.Effect<void> =>
      Effect.gen(function* () {
        const now = yield* DateTime.now
        const read = yield* Effect.either(deliveries.sources(eventIds.map((eventId) => ({ eventId, now }))))
        if (Either.isLeft(read)) {
          const outcome = Either.left(read.left)
          return yield* onOutcomes(eventIds.map((_, index) => ({ index, outcome })))
        }
        const early: Array<IndexedOutcome> = []
        // `sent[i]` is the delivery `requests[i]` carries; `unsigned` are those of a platform with no secret.
        const sent: Array<Slot> = []
        const requests: Array<WebhookRequest> = []
        const unsigned: Array<Slot> = []
        const timestampSeconds = yield* realSeconds
        for (const [index, found] of read.right.entries()) {
          const nothing = (reason: Extract<AttemptOutcome, { readonly _tag: "NothingToDo" }>["reason"]) =>
            early.push({ index, outcome: Either.right({ _tag: "NothingToDo", reason }) })
          if (Option.isNone(found)) {
            nothing("event_not_found")
            continue
          }
          const { endpoint, event, secrets: active } = found.value
          if (Option.isNone(endpoint)) {
            nothing("no_endpoint")
            continue
          }
          const delivery = Option.isSome(found.value.delivery)
            ? found.value.delivery.value
            : pendingFields(
                WebhookDeliveryId.make(ResourceId.format("WebhookDelivery", yield* ids.uuid)),
                event,
                endpoint.value.url,
                now
              )
          if (isSettled(delivery)) {
            nothing("settled")
            continue
          }
          const slot = { index, delivery, expected: Option.map(found.value.delivery, expectedOf) }
          if (active.length === 0) {
            unsigned.push(slot)
            continue
          }
          sent.push(slot)
          requests.push(
            yield* signed(active, endpoint.value, event.id, WebhookEnvelope.ofEvent(event), timestampSeconds)
          )
        }
        if (early.length > 0) yield* onOutcomes(early)

        // A group's report (its jobs' completion) runs while the next group is recorded; all end with the batch.
        const reporting: Array<Fiber.RuntimeFiber<void>> = []
        const record = (group: ReadonlyArray<readonly [Slot, Either.Either<WebhookResponse, Problem>]>) =>
          Effect.gen(function* () {
            // Each slot with what its attempt came to, in the group's order (the order `recordAll` answers in).
            const settled = yield* Effect.forEach(group, ([slot, result]) =>
              Effect.map(settle(slot.delivery, result, now), (outcome) => ({ slot, outcome }))
            )
            const applied = yield* Effect.either(
              deliveries.recordAll(
                settled.map(({ outcome, slot }) => ({ next: outcome.delivery, expected: slot.expected }))
              )
            )
            reporting.push(
              yield* Effect.fork(
                onOutcomes(
                  settled.map(({ outcome, slot }, position) => ({
                    index: slot.index,
                    outcome: Either.map(applied, (written) =>
                      written[position] === true ? outcome : ({ _tag: "NothingToDo", reason: "superseded" } as const)
                    )
                  }))
                )
              )
            )
          })
        if (unsigned.length > 0) yield* record(unsigned.map((slot) => [slot, Either.left(noSecret)] as const))
        if (requests.length > 0) {
          // Every request is sent at once; the answers are recorded in groups, each group being the answers that
          // came while the previous one was recorded.
          const answered = yield* Queue.unbounded<Answer>()
          yield* transport.sendAll(requests, answered)
          let remaining = requests.length
          while (remaining > 0) {
            const first = yield* Queue.take(answered)
            yield* Effect.yieldNow()
            const group = [first, ...Chunk.toReadonlyArray(yield* Queue.takeAll(answered))]
            remaining -= group.length
            yield* record(
              group.flatMap(({ index, result }) => {
                const slot = sent[index]
                return slot === undefined ? [] : [[slot, Either.mapLeft(result, problemOf)] as const]
              })
            )
          }
        }
        // Awaited, not joined: a join would merge each fiber's context into this one's (a diff of the whole
        // application's services per group); a report never fails, but a defect in one is raised here still.
        for (const exit of yield* Fiber.awaitAll(reporting)) yield* exit
      }).pipe(Effect.scoped)

    // One attempt is a batch of one: concurrent attempts do not share statements, but a job worker runs the delivery
    // jobs of a claim as one batch (`attemptAll`).
    const attempt = (eventId: DomainEvent.EventId): Effect.Effect<AttemptOutcome, StoreFailure.StoreFailure> =>
      Effect.suspend(() => {
        let answer: Either.Either<AttemptOutcome, StoreFailure.StoreFailure> | undefined
        return attemptAll([eventId], (outcomes) =>
          Effect.sync(() => {
            answer = outcomes[0]?.outcome
          })
        ).pipe(Effect.flatMap(() => (answer === undefined ? Effect.dieMessage("the attempt got no outcome") : answer)))
      })

    const newTestId = Effect.map(ids.uuid, (uuid) => DomainEvent.EventId.make(ResourceId.format("Webhook", uuid)))

    const sendTestAs = (platform: Platform.Platform, url: string, id: DomainEvent.EventId, now: DateTime.Utc) =>
      Effect.gen(function* () {
        const body = WebhookEnvelope.body({ id, type: WebhookEnvelope.testType, timestamp: now })
        const active = yield* secrets.active(platform.id, now)
        const result = yield* signAndSend(
          active.map((secret) => secret.secret),
          { url, environment: platform.environment },
          id,
          body
        )
        if (Either.isLeft(result)) return yield* WebhookDeliveryError.of(url, result.left.kind, result.left.message)
        return { url, responseStatus: result.right.status, responseBody: result.right.body }
      })

    const sendTestTo = Effect.fn("WebhookDispatch.sendTestTo")(function* (platform: Platform.Platform, url: string) {
      return yield* sendTestAs(platform, url, yield* newTestId, yield* DateTime.now)
    })

    const sendTest = Effect.fn("WebhookDispatch.sendTest")(function* (
      platform: Platform.Platform,
      url: Option.Option<string>
    ) {
      if (platform.environment !== "SANDBOX") return yield* PlatformErrors.SandboxOnly.of()
      const target = Option.orElse(url, () => Option.fromNullable(platform.config.webhookEndpoint))
      if (Option.isNone(target)) return yield* WebhookEndpointNotSet.of()
      const id = yield* newTestId
      const now = yield* DateTime.now
      // Recorded in the outbox (whose delivery trigger skips TEST events: this send is its delivery), so clients
      // following the platform's event feed (`payrail webhooks listen`) see it too.
      yield* outbox.append(
        new DomainEvent.DomainEvent({
          id,
          platformId: platform.id,
          type: WebhookEnvelope.testType,
          timestamp: now,
          data: {}
        })
      )
      return yield* sendTestAs(platform, target.value, id, now)
    })

    const sendEvent = Effect.fn("WebhookDispatch.sendEvent")(function* (
      platform: Platform.Platform,
      url: string,
      event: DomainEvent.DomainEvent
    ) {
      const active = yield* secrets.active(platform.id, yield* DateTime.now)
      const result = yield* signAndSend(
        active.map((secret) => secret.secret),
        { url, environment: platform.environment },
        event.id,
        WebhookEnvelope.ofEvent(event)
      )
      if (Either.isLeft(result)) return yield* WebhookDeliveryError.of(url, result.left.kind, result.left.message)
      return {
        url,
        responseStatus: result.right.status,
        responseBody: result.right.body,
        latencyMillis: result.right.latencyMillis
      }
    })

    return { attempt, attemptAll, sendTest, sendTestTo, sendEvent }
  })
)
