import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { CustomerRepo, DomainEvent, Outbox, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const eventFor = (platformId: DomainEvent.DomainEvent["platformId"], type: string) =>
  new DomainEvent.DomainEvent({
    id: DomainEvent.EventId.make(`Webhook:${globalThis.crypto.randomUUID()}`),
    platformId,
    type,
    timestamp: Fixtures.at(0),
    data: { type }
  })

const eventsOf = (platformId: string) =>
  Effect.map(Outbox.Outbox, (outbox) => outbox).pipe(
    Effect.flatMap((outbox) => outbox.pending(100_000)),
    Effect.map((events) => events.filter((event) => event.platformId === platformId))
  )

/** The unit of work: a change and its outbox events commit together or not at all. */
export const register = (it: Methods) => {
  it.effect("commits a change and its events together, events in append order", () =>
    Effect.gen(function* () {
      const store = yield* UnitOfWork.UnitOfWork
      const repo = yield* CustomerRepo.CustomerRepo
      const outbox = yield* Outbox.Outbox
      const platform = yield* Fixtures.insertPlatform
      const customer = Fixtures.individual()
      const first = eventFor(platform.id, "CUSTOMER.CREATED")
      const second = eventFor(platform.id, "CUSTOMER.KYC_APPROVED")
      yield* store.transaction(
        Effect.gen(function* () {
          yield* repo.insert(platform.id, customer, Fixtures.noIdentifier)
          yield* outbox.append(first)
          yield* outbox.append(second)
        })
      )
      expect(Option.isSome(yield* repo.findById(platform.id, customer.id))).toBe(true)
      expect(yield* eventsOf(platform.id)).toEqual([first, second])
    })
  )

  it.effect("appends several events at once in the given order, and none when the unit of work fails", () =>
    Effect.gen(function* () {
      const store = yield* UnitOfWork.UnitOfWork
      const outbox = yield* Outbox.Outbox
      const platform = yield* Fixtures.insertPlatform
      const events = ["CUSTOMER.CREATED", "CUSTOMER.KYC_APPROVED", "CUSTOMER.UPDATED"].map((type) =>
        eventFor(platform.id, type)
      )
      yield* outbox.appendAll([])
      yield* outbox.appendAll(events)
      const later = eventFor(platform.id, "CUSTOMER.UPDATED")
      yield* outbox.append(later)
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(outbox.appendAll([eventFor(platform.id, "CUSTOMER.CREATED")]), Effect.fail("boom" as const))
        )
      )
      expect(failed).toEqual(Either.left("boom"))
      expect(yield* eventsOf(platform.id)).toEqual([...events, later])
    })
  )

  it.effect("leaves neither the change nor its events behind when the unit of work fails", () =>
    Effect.gen(function* () {
      const store = yield* UnitOfWork.UnitOfWork
      const repo = yield* CustomerRepo.CustomerRepo
      const outbox = yield* Outbox.Outbox
      const platform = yield* Fixtures.insertPlatform
      const customer = Fixtures.individual()
      const result = yield* Effect.either(
        store.transaction(
          Effect.gen(function* () {
            yield* repo.insert(platform.id, customer, Fixtures.noIdentifier)
            yield* outbox.append(eventFor(platform.id, "CUSTOMER.CREATED"))
            return yield* Effect.fail("boom" as const)
          })
        )
      )
      expect(result).toEqual(Either.left("boom"))
      expect(yield* repo.findById(platform.id, customer.id)).toEqual(Option.none())
      expect(yield* eventsOf(platform.id)).toEqual([])
    })
  )

  it.effect("rolls back the first insert when a later one in the same unit of work conflicts", () =>
    Effect.gen(function* () {
      const store = yield* UnitOfWork.UnitOfWork
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      yield* repo.insert(platform.id, Fixtures.individual({ platformCustomerId: "taken" }), Fixtures.noIdentifier)
      const fresh = Fixtures.individual()
      const result = yield* Effect.either(
        store.transaction(
          Effect.gen(function* () {
            yield* repo.insert(platform.id, fresh, Fixtures.noIdentifier)
            yield* repo.insert(platform.id, Fixtures.individual({ platformCustomerId: "taken" }), Fixtures.noIdentifier)
          })
        )
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("PlatformCustomerIdTaken")
      expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.none())
    })
  )

  it.effect("undoes only a failed nested unit of work when the outer one recovers", () =>
    Effect.gen(function* () {
      const store = yield* UnitOfWork.UnitOfWork
      const repo = yield* CustomerRepo.CustomerRepo
      const outbox = yield* Outbox.Outbox
      const platform = yield* Fixtures.insertPlatform
      const kept = Fixtures.individual()
      const undone = Fixtures.individual()
      yield* store.transaction(
        Effect.gen(function* () {
          yield* repo.insert(platform.id, kept, Fixtures.noIdentifier)
          yield* store
            .transaction(
              Effect.gen(function* () {
                yield* repo.insert(platform.id, undone, Fixtures.noIdentifier)
                yield* outbox.append(eventFor(platform.id, "CUSTOMER.CREATED"))
                return yield* Effect.fail("inner" as const)
              })
            )
            .pipe(Effect.catchAll(() => Effect.void))
        })
      )
      expect(Option.isSome(yield* repo.findById(platform.id, kept.id))).toBe(true)
      expect(yield* repo.findById(platform.id, undone.id)).toEqual(Option.none())
      expect(yield* eventsOf(platform.id)).toEqual([])
    })
  )

  it.effect("keeps concurrent units of work isolated: 20 racing creates leave exactly one customer and one event", () =>
    Effect.gen(function* () {
      const store = yield* UnitOfWork.UnitOfWork
      const repo = yield* CustomerRepo.CustomerRepo
      const outbox = yield* Outbox.Outbox
      const platform = yield* Fixtures.insertPlatform
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () =>
          Effect.either(
            store.transaction(
              Effect.gen(function* () {
                yield* repo.insert(
                  platform.id,
                  Fixtures.individual({ platformCustomerId: "contended" }),
                  Fixtures.noIdentifier
                )
                yield* outbox.append(eventFor(platform.id, "CUSTOMER.CREATED"))
              })
            )
          )
        ),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      expect(yield* eventsOf(platform.id)).toHaveLength(1)
    })
  )
}
