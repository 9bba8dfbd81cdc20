import { expect } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted } from "effect"
import {
  DomainEvent,
  Outbox,
  Page,
  Platform,
  PlatformRepo,
  WebhookDelivery,
  WebhookDeliveryRepo,
  WebhookSecret,
  WebhookSecretRepo
} from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const uuid = () => globalThis.crypto.randomUUID()

const event = (platformId: Platform.PlatformId, type = "CUSTOMER.KYC_APPROVED", offsetMillis = 0) =>
  new DomainEvent.DomainEvent({
    id: DomainEvent.EventId.make(`Webhook:${uuid()}`),
    platformId,
    type,
    timestamp: Fixtures.at(offsetMillis),
    data: { id: "Customer:1", nested: { list: [1, "two", null] } }
  })

const delivery = (
  platformId: Platform.PlatformId,
  options: { readonly type?: string; readonly offsetMillis?: number; readonly url?: string } = {}
) =>
  WebhookDelivery.pending(
    WebhookDelivery.WebhookDeliveryId.make(`WebhookDelivery:${uuid()}`),
    event(platformId, options.type, options.offsetMillis),
    options.url ?? "https://receiver.example/hooks",
    Fixtures.at(options.offsetMillis ?? 0)
  )

const secret = (platformId: Platform.PlatformId, offsetMillis: number) =>
  new WebhookSecret.WebhookSecret({
    platformId,
    secret: Redacted.make(`whsec_${btoa(uuid())}`),
    createdAt: Fixtures.at(offsetMillis)
  })

const hour = 3_600_000

const endpointUrl = "https://receiver.example/hooks"

// A production platform whose webhooks go to `endpointUrl`.
const insertReceivingPlatform = Effect.gen(function* () {
  const base = Fixtures.platform("Receiving")
  const platform = new Platform.Platform({
    ...base,
    environment: "PRODUCTION",
    config: new Platform.PlatformConfig({ ...base.config, webhookEndpoint: endpointUrl })
  })
  yield* (yield* PlatformRepo.PlatformRepo).insert(platform)
  return platform
})

// The first attempt's outcome for `event`: a delivered delivery with a fresh id.
const firstAttempt = (event: DomainEvent.DomainEvent, status: WebhookDelivery.DeliveryStatus = "DELIVERED") =>
  new WebhookDelivery.WebhookDelivery({
    ...WebhookDelivery.pending(
      WebhookDelivery.WebhookDeliveryId.make(`WebhookDelivery:${uuid()}`),
      event,
      endpointUrl,
      Fixtures.at(0)
    ),
    status,
    attempts: 1,
    lastResponseStatus: status === "DELIVERED" ? 200 : 500,
    lastLatencyMillis: 3,
    lastAttemptAt: Fixtures.at(0),
    nextAttemptAt: status === "FAILED" ? Fixtures.at(5_000) : undefined
  })

const firstPage = { limit: 20, after: Option.none() }

/**
 * Webhooks: outbox lookup by id, the delivery log (one delivery per event and URL under races, compare-and-set
 * updates with one winner, platform scoping, filtered keyset pages) and signing secrets (rotation overlap, expiry).
 */
export const register = (it: Methods) => {
  it.effect("finds an outbox event by id with its data intact", () =>
    Effect.gen(function* () {
      const outbox = yield* Outbox.Outbox
      const platform = yield* Fixtures.insertPlatform
      const appended = event(platform.id)
      yield* outbox.append(appended)
      expect(yield* outbox.findById(appended.id)).toEqual(Option.some(appended))
      expect(yield* outbox.findById(event(platform.id).id)).toEqual(Option.none())
    })
  )

  it.effect("opens one delivery per event and URL, also when 16 fibers open it at once", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookDeliveryRepo.WebhookDeliveryRepo
      const platform = yield* Fixtures.insertPlatform
      const first = delivery(platform.id)
      const rivals = Array.from({ length: 16 }, () =>
        WebhookDelivery.pending(
          WebhookDelivery.WebhookDeliveryId.make(`WebhookDelivery:${uuid()}`),
          new DomainEvent.DomainEvent({
            id: first.eventId,
            platformId: platform.id,
            type: first.eventType,
            timestamp: first.createdAt,
            data: {}
          }),
          first.url,
          first.createdAt
        )
      )
      const opened = yield* Effect.forEach(rivals, (rival) => repo.open(rival), { concurrency: "unbounded" })
      expect(new Set(opened.map((found) => found.id)).size).toBe(1)
      const page = yield* repo.list(platform.id, {}, firstPage)
      expect(page.totalCount).toBe(1)
      expect(page.data).toEqual([opened[0]])
      // Another URL for the same event is another delivery.
      const elsewhere = yield* repo.open(
        new WebhookDelivery.WebhookDelivery({ ...first, url: "https://other.example/" })
      )
      expect(elsewhere.id).toBe(first.id)
      expect((yield* repo.list(platform.id, {}, firstPage)).totalCount).toBe(2)
    })
  )

  it.effect("applies exactly one of 16 concurrent updates from one state, and none from a stale one", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookDeliveryRepo.WebhookDeliveryRepo
      const platform = yield* Fixtures.insertPlatform
      const opened = yield* repo.open(delivery(platform.id))
      const attempts = Array.from(
        { length: 16 },
        (_, index) =>
          new WebhookDelivery.WebhookDelivery({
            ...opened,
            status: "FAILED",
            attempts: 1,
            lastResponseStatus: 500 + index,
            lastLatencyMillis: index,
            lastError: undefined,
            nextAttemptAt: Fixtures.at(5_000),
            updatedAt: Fixtures.at(1_000)
          })
      )
      const applied = yield* Effect.forEach(attempts, (next) => repo.update(next, WebhookDelivery.expectedOf(opened)), {
        concurrency: "unbounded"
      })
      expect(applied.filter(Boolean)).toHaveLength(1)
      const winner = attempts[applied.indexOf(true)]
      expect(yield* repo.findById(platform.id, opened.id)).toEqual(Option.fromNullable(winner))
      expect(
        yield* repo.update(
          new WebhookDelivery.WebhookDelivery({ ...opened, status: "DELIVERED", attempts: 1 }),
          WebhookDelivery.expectedOf(opened)
        )
      ).toBe(false)
    })
  )

  it.effect("finds a delivery only on its own platform", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookDeliveryRepo.WebhookDeliveryRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const opened = yield* repo.open(delivery(mine.id))
      expect(yield* repo.findById(mine.id, opened.id)).toEqual(Option.some(opened))
      expect(yield* repo.findById(other.id, opened.id)).toEqual(Option.none())
      expect((yield* repo.list(other.id, {}, firstPage)).data).toEqual([])
      const updated = new WebhookDelivery.WebhookDelivery({
        ...opened,
        platformId: other.id,
        status: "DEAD",
        attempts: 1
      })
      expect(yield* repo.update(updated, WebhookDelivery.expectedOf(opened))).toBe(false)
    })
  )

  it.effect("lists deliveries newest first in keyset pages, filtered by status and event type", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookDeliveryRepo.WebhookDeliveryRepo
      const platform = yield* Fixtures.insertPlatform
      const opened = yield* Effect.forEach(
        Array.from({ length: 5 }, (_, index) => index),
        (index) =>
          repo.open(delivery(platform.id, { offsetMillis: index * 1000, type: index % 2 === 0 ? "A.EVEN" : "B.ODD" }))
      )
      const failed = new WebhookDelivery.WebhookDelivery({ ...opened[1]!, status: "FAILED", attempts: 1 })
      expect(yield* repo.update(failed, WebhookDelivery.expectedOf(opened[1]!))).toBe(true)

      const first = yield* repo.list(platform.id, {}, { limit: 2, after: Option.none() })
      expect(first.data.map((found) => found.id)).toEqual([opened[4]!.id, opened[3]!.id])
      expect(first.hasMore).toBe(true)
      expect(first.totalCount).toBe(5)
      const cursor = yield* Page.decodeCursor(first.nextCursor ?? "")
      const second = yield* repo.list(platform.id, {}, { limit: 10, after: Option.some(cursor) })
      expect(second.data.map((found) => found.id)).toEqual([opened[2]!.id, failed.id, opened[0]!.id])
      expect(second.hasMore).toBe(false)

      const byStatus = yield* repo.list(platform.id, { status: "FAILED" }, firstPage)
      expect(byStatus.data).toEqual([failed])
      expect(byStatus.totalCount).toBe(1)
      const byType = yield* repo.list(platform.id, { eventType: "A.EVEN" }, firstPage)
      expect(byType.data.map((found) => found.id)).toEqual([opened[4]!.id, opened[2]!.id, opened[0]!.id])
      expect(byType.totalCount).toBe(3)
      const both = yield* repo.list(platform.id, { eventType: "B.ODD", status: "PENDING" }, firstPage)
      expect(both.data.map((found) => found.id)).toEqual([opened[3]!.id])
      expect((yield* repo.list(platform.id, { eventType: "NO\u0000SUCH" }, firstPage)).data).toEqual([])
    })
  )

  it.effect("reads the sources of many attempts at once: event, endpoint, secrets active at each time, delivery", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookDeliveryRepo.WebhookDeliveryRepo
      const outbox = yield* Outbox.Outbox
      const secrets = yield* WebhookSecretRepo.WebhookSecretRepo
      const receiving = yield* insertReceivingPlatform
      const silent = yield* Fixtures.insertPlatform
      const first = secret(receiving.id, 0)
      const second = secret(receiving.id, hour)
      yield* secrets.rotate(first, Fixtures.at(0))
      yield* secrets.rotate(second, Fixtures.at(2 * hour))
      const delivered = event(receiving.id, "A.DELIVERED")
      const fresh = event(receiving.id, "B.FRESH")
      const elsewhere = event(silent.id)
      yield* outbox.appendAll([delivered, fresh, elsewhere])
      const stored = firstAttempt(delivered)
      expect(yield* repo.recordAll([{ next: stored, expected: Option.none() }])).toEqual([true])

      const missing = DomainEvent.EventId.make(`Webhook:${uuid()}`)
      const found = yield* repo.sources([
        { eventId: fresh.id, now: Fixtures.at(hour + 1) },
        { eventId: missing, now: Fixtures.at(0) },
        { eventId: delivered.id, now: Fixtures.at(3 * hour) },
        { eventId: elsewhere.id, now: Fixtures.at(0) }
      ])
      expect(found).toHaveLength(4)
      const [forFresh, forMissing, forDelivered, forElsewhere] = found.map(Option.getOrUndefined)
      expect(forMissing).toBeUndefined()
      expect(forFresh?.event).toEqual(fresh)
      expect(forFresh?.endpoint).toEqual(Option.some({ url: endpointUrl, environment: "PRODUCTION" }))
      expect(forFresh?.delivery).toEqual(Option.none())
      // Newest first, and only those active at the request's own time.
      expect(forFresh?.secrets.map(Redacted.value)).toEqual([second, first].map((one) => Redacted.value(one.secret)))
      expect(forDelivered?.secrets.map(Redacted.value)).toEqual([Redacted.value(second.secret)])
      expect(forDelivered?.event).toEqual(delivered)
      expect(forDelivered?.delivery).toEqual(Option.some(stored))
      expect(forElsewhere?.endpoint).toEqual(Option.none())
      expect(forElsewhere?.secrets).toEqual([])
      expect(yield* repo.sources([])).toEqual([])
    })
  )

  it.effect(
    "records many outcomes at once: one first attempt per pair, one update per state, none from a stale one",
    () =>
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveryRepo.WebhookDeliveryRepo
        const outbox = yield* Outbox.Outbox
        const platform = yield* insertReceivingPlatform
        const events = Array.from({ length: 3 }, () => event(platform.id))
        yield* outbox.appendAll(events)
        const [contended, failing, other] = events as [
          DomainEvent.DomainEvent,
          DomainEvent.DomainEvent,
          DomainEvent.DomainEvent
        ]

        // Two first attempts of one pair in one call, and 8 more from concurrent calls: exactly one is stored.
        const rivals = Array.from({ length: 10 }, () => firstAttempt(contended))
        const inOneCall = yield* repo.recordAll([
          { next: rivals[0]!, expected: Option.none() },
          { next: firstAttempt(other), expected: Option.none() },
          { next: rivals[1]!, expected: Option.none() }
        ])
        const concurrent = yield* Effect.forEach(
          rivals.slice(2),
          (next) => repo.recordAll([{ next, expected: Option.none() }]),
          { concurrency: "unbounded" }
        )
        expect(inOneCall[1]).toBe(true)
        expect([inOneCall[0], inOneCall[2], ...concurrent.flat()].filter(Boolean)).toHaveLength(1)
        const stored = yield* repo.sources([{ eventId: contended.id, now: Fixtures.at(0) }])
        const winner = Option.getOrUndefined(
          Option.flatMap(Option.flatten(Option.fromNullable(stored[0])), (s) => s.delivery)
        )
        expect(rivals.some((rival) => rival.id === winner?.id)).toBe(true)

        // Updates of a FAILED delivery: of two from its state in one call one applies; a stale guard applies none.
        const failed = firstAttempt(failing, "FAILED")
        expect(yield* repo.recordAll([{ next: failed, expected: Option.none() }])).toEqual([true])
        const retried = (status: WebhookDelivery.DeliveryStatus, lastResponseStatus: number) =>
          new WebhookDelivery.WebhookDelivery({ ...failed, status, attempts: 2, lastResponseStatus })
        const guard = Option.some(WebhookDelivery.expectedOf(failed))
        const applied = yield* repo.recordAll([
          { next: retried("DELIVERED", 200), expected: guard },
          { next: retried("DELIVERED", 204), expected: guard }
        ])
        expect(applied.filter(Boolean)).toHaveLength(1)
        const after = yield* repo.findById(platform.id, failed.id)
        expect(Option.map(after, (found) => found.lastResponseStatus)).toEqual(Option.some(applied[0] ? 200 : 204))
        expect(yield* repo.recordAll([{ next: retried("DEAD", 500), expected: guard }])).toEqual([false])
        expect(yield* repo.recordAll([])).toEqual([])
      })
  )

  it.effect("keeps a rotated-out secret active through the overlap only, newest first", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookSecretRepo.WebhookSecretRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const first = secret(platform.id, 0)
      yield* repo.rotate(first, Fixtures.at(0))
      yield* repo.rotate(secret(other.id, 0), Fixtures.at(0))
      expect(yield* repo.active(platform.id, Fixtures.at(hour))).toEqual([first])

      const second = secret(platform.id, 2 * hour)
      yield* repo.rotate(second, Fixtures.at(26 * hour))
      const expiring = new WebhookSecret.WebhookSecret({ ...first, expiresAt: Fixtures.at(26 * hour) })
      expect(yield* repo.active(platform.id, Fixtures.at(3 * hour))).toEqual([second, expiring])
      expect(yield* repo.active(platform.id, Fixtures.at(26 * hour))).toEqual([second])
      expect((yield* repo.active(other.id, Fixtures.at(3 * hour))).length).toBe(1)

      // A rotation within the overlap keeps the earlier expiry of the oldest secret.
      const third = secret(platform.id, 3 * hour)
      yield* repo.rotate(third, Fixtures.at(27 * hour))
      const active = yield* repo.active(platform.id, Fixtures.at(4 * hour))
      expect(active.map((found) => Redacted.value(found.secret))).toEqual(
        [third, second, first].map((found) => Redacted.value(found.secret))
      )
      expect(active.map((found) => found.expiresAt && DateTime.toEpochMillis(found.expiresAt))).toEqual([
        undefined,
        DateTime.toEpochMillis(Fixtures.at(27 * hour)),
        DateTime.toEpochMillis(Fixtures.at(26 * hour))
      ])
    })
  )

  it.effect("loses no secret to 8 concurrent rotations, and expires the one they replaced", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookSecretRepo.WebhookSecretRepo
      const platform = yield* Fixtures.insertPlatform
      const original = secret(platform.id, 0)
      yield* repo.rotate(original, Fixtures.at(0))
      const rotations = Array.from({ length: 8 }, () => secret(platform.id, hour))
      yield* Effect.forEach(rotations, (next) => repo.rotate(next, Fixtures.at(25 * hour)), {
        concurrency: "unbounded"
      })
      const active = yield* repo.active(platform.id, Fixtures.at(2 * hour))
      const values = active.map((found) => Redacted.value(found.secret))
      for (const next of [...rotations, original]) expect(values).toContain(Redacted.value(next.secret))
      expect(active).toHaveLength(9)
      const replaced = active.find((found) => Redacted.value(found.secret) === Redacted.value(original.secret))
      expect(replaced?.expiresAt && DateTime.toEpochMillis(replaced.expiresAt)).toBe(
        DateTime.toEpochMillis(Fixtures.at(25 * hour))
      )
      // After the overlap the original is gone and at least one new secret stays current (concurrent rotations that
      // did not see each other may leave several current).
      const after = (yield* repo.active(platform.id, Fixtures.at(25 * hour))).map((found) =>
        Redacted.value(found.secret)
      )
      expect(after).not.toContain(Redacted.value(original.secret))
      expect(after.length).toBeGreaterThanOrEqual(1)
    })
  )
}
