import { describe, expect, it } from "@effect/vitest"
import { DomainEvent, Ids, Outbox, OutboxPosition, PlatformId, UnitOfWork } from "@payrail/core"
import { Deferred, Effect, Fiber, Option } from "effect"
import * as Postgres from "../fixtures/Postgres.js"

const platformId = PlatformId.PlatformId.make("Platform:5f0c8f9e-8d5e-4a36-9a51-0d3c1f1f7a10")

const newEvent = (type: string) => DomainEvent.make(platformId, type, {}).pipe(Effect.provide(Ids.layer))

// The feed's guarantee (migration 0037): an event becomes readable only once nothing that sorts before it can still
// appear, so a reader that resumes from the last position it read never skips an event that commits late.
describe.skipIf(!Postgres.configured)("Outbox.feed on PostgreSQL (DATABASE_URL)", () => {
  it.live(
    "holds back an event committed while an older unit of work is still open, then returns both in commit order",
    () =>
      Effect.gen(function* () {
        const outbox = yield* Outbox.Outbox
        const unitOfWork = yield* UnitOfWork.UnitOfWork
        const start = Option.some(OutboxPosition.start)
        const appended = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const early = yield* newEvent("EARLY")
        // A unit of work that appends first and commits last: it reads its event back (so the append is sent, not
        // held until the end with the unit's other writes) and goes on.
        const slow = yield* Effect.fork(
          unitOfWork.transaction(
            outbox.append(early).pipe(
              Effect.zipRight(outbox.findById(early.id)),
              Effect.tap((found) => expect(Option.isSome(found)).toBe(true)),
              Effect.zipRight(Deferred.succeed(appended, undefined)),
              Effect.zipRight(Deferred.await(release))
            )
          )
        )
        yield* Deferred.await(appended)
        const late = yield* newEvent("LATE")
        yield* outbox.append(late)
        const meanwhile = yield* outbox.feed(platformId, start, 100)
        // The committed event waits for the open unit of work: a cursor past it would skip `early`.
        expect(meanwhile.events).toEqual([])
        expect(meanwhile.position).toEqual(OutboxPosition.start)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(slow)
        const after = yield* outbox.feed(platformId, start, 100)
        expect(after.events.map(({ event }) => event.type)).toEqual(["EARLY", "LATE"])
        const again = yield* outbox.feed(platformId, Option.some(after.position), 100)
        expect(again.events).toEqual([])
        expect((yield* outbox.feed(platformId, Option.none(), 100)).position).toEqual(after.position)
      }).pipe(Effect.provide(Postgres.layer)),
    { timeout: 60_000 }
  )
})
