import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { CustomerRepo, DomainEvent, Ids, Jobs, Outbox, type Storage, UnitOfWork } from "@payrail/core"
import { Fixtures } from "@payrail/storage-testkit"
import { DateTime, Effect, Either, Layer, Option } from "effect"
import * as Statements from "../fixtures/Statements.js"

/**
 * `PgUnitOfWork` holds the writes whose outcome nobody reads (`WriteBehind`) and sends them together: what a unit
 * relies on must hold all the same. Registered once per backend.
 */
export const register = (backend: string, storage: Layer.Layer<Storage.Services | SqlClient.SqlClient, unknown>) =>
  layer(Layer.merge(storage, Ids.layer), { timeout: "60 seconds", excludeTestServices: true })(
    `write-behind units of work on ${backend}`,
    (it) => {
      const setup = Effect.gen(function* () {
        const platform = yield* Fixtures.insertPlatform
        return {
          platform,
          customers: yield* CustomerRepo.CustomerRepo,
          outbox: yield* Outbox.Outbox,
          unit: yield* UnitOfWork.UnitOfWork
        }
      })

      it.effect("reads inside a unit see the writes it made before them, and the unit commits them once", () =>
        Effect.gen(function* () {
          const { platform, customers, outbox, unit } = yield* setup
          const customer = Fixtures.individual()
          const event = yield* DomainEvent.make(platform.id, "CUSTOMER.CREATED", { id: customer.id })
          const [seen, statements] = yield* Statements.executed(
            unit.transaction(
              Effect.gen(function* () {
                yield* customers.insert(platform.id, customer, Fixtures.noIdentifier)
                yield* outbox.append(event)
                return yield* customers.findById(platform.id, customer.id)
              })
            )
          )
          expect(Option.map(seen, (found) => found.customer.id)).toEqual(Option.some(customer.id))
          // The writes went as one statement, sent by the read before its own (inside its span, so listed after it).
          expect(statements).toHaveLength(2)
          expect(statements[0]).toMatch(/^SELECT/)
          expect(statements[1]).toMatch(/INSERT INTO customers[\s\S]*INSERT INTO outbox/)
          expect(yield* outbox.findById(event.id)).toEqual(Option.some(event))
        })
      )

      it.effect("a write that fails when sent fails the unit with its own error, and leaves nothing", () =>
        Effect.gen(function* () {
          const { platform, customers, outbox, unit } = yield* setup
          const first = Fixtures.individual()
          yield* customers.insert(platform.id, first, Fixtures.noIdentifier)
          const twin = Fixtures.individual({ platformCustomerId: first.platformCustomerId })
          const event = yield* DomainEvent.make(platform.id, "CUSTOMER.CREATED", { id: twin.id })
          const outcome = yield* Effect.either(
            unit.transaction(
              Effect.zipRight(customers.insert(platform.id, twin, Fixtures.noIdentifier), outbox.append(event))
            )
          )
          expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
            _tag: "PlatformCustomerIdTaken"
          })
          expect(yield* customers.findById(platform.id, twin.id)).toEqual(Option.none())
          expect(yield* outbox.findById(event.id)).toEqual(Option.none())
        })
      )

      it.effect("a unit whose effect swallowed the failure of its writes still fails, and commits nothing", () =>
        Effect.gen(function* () {
          const { platform, customers, unit } = yield* setup
          const first = Fixtures.individual()
          yield* customers.insert(platform.id, first, Fixtures.noIdentifier)
          const twin = Fixtures.individual({ platformCustomerId: first.platformCustomerId })
          const later = Fixtures.individual()
          const outcome = yield* Effect.either(
            unit.transaction(
              Effect.gen(function* () {
                yield* customers.insert(platform.id, twin, Fixtures.noIdentifier)
                // The read carries the queued insert, fails with it, and the effect goes on regardless.
                yield* Effect.ignore(customers.findById(platform.id, twin.id))
                yield* customers.insert(platform.id, later, Fixtures.noIdentifier)
              })
            )
          )
          expect(Either.isLeft(outcome) && outcome.left).toMatchObject({ _tag: "PlatformCustomerIdTaken" })
          expect(yield* customers.findById(platform.id, later.id)).toEqual(Option.none())
        })
      )

      it.effect("a nested unit that fails undoes its own writes; the outer unit commits the rest", () =>
        Effect.gen(function* () {
          const { platform, customers, unit } = yield* setup
          const kept = Fixtures.individual()
          const undone = Fixtures.individual()
          yield* unit.transaction(
            Effect.gen(function* () {
              yield* customers.insert(platform.id, kept, Fixtures.noIdentifier)
              const inner = yield* Effect.either(
                unit.transaction(
                  Effect.zipRight(customers.insert(platform.id, undone, Fixtures.noIdentifier), Effect.fail("no"))
                )
              )
              expect(inner).toEqual(Either.left("no"))
            })
          )
          expect(Option.isSome(yield* customers.findById(platform.id, kept.id))).toBe(true)
          expect(yield* customers.findById(platform.id, undone.id)).toEqual(Option.none())
        })
      )

      it.effect("a unit that fails after writing sends nothing", () =>
        Effect.gen(function* () {
          const { platform, customers, unit } = yield* setup
          const customer = Fixtures.individual()
          const [outcome, statements] = yield* Statements.executed(
            Effect.either(
              unit.transaction(
                Effect.zipRight(customers.insert(platform.id, customer, Fixtures.noIdentifier), Effect.fail("no"))
              )
            )
          )
          expect(outcome).toEqual(Either.left("no"))
          expect(statements).toEqual([])
          expect(yield* customers.findById(platform.id, customer.id)).toEqual(Option.none())
        })
      )

      it.effect("jobs enqueued in a unit go in one INSERT with its other writes; a repeated key is kept once", () =>
        Effect.gen(function* () {
          const { platform, customers, unit } = yield* setup
          const jobs = yield* Jobs.Jobs
          const sql = yield* SqlClient.SqlClient
          const kind = `write-behind-${globalThis.crypto.randomUUID()}`
          const dueAt = DateTime.add(yield* DateTime.now, { hours: 1 })
          const job = (key: string) => ({
            kind,
            payload: { key },
            dueAt,
            platformId: platform.id,
            deduplicationKey: key
          })
          const [, statements] = yield* Statements.executed(
            unit.transaction(
              Effect.gen(function* () {
                yield* customers.insert(platform.id, Fixtures.individual(), Fixtures.noIdentifier)
                yield* jobs.enqueue(job("a"))
                yield* jobs.enqueueAll([job("a"), job("b")])
              })
            )
          )
          expect(statements).toHaveLength(1)
          expect(statements[0]).toMatch(/INSERT INTO customers[\s\S]*INSERT INTO jobs/)
          expect(statements[0]?.match(/INSERT INTO jobs/g)).toHaveLength(1)
          const rows = yield* sql<{ readonly key: string }>`
            SELECT deduplication_key AS key FROM jobs WHERE kind = ${kind} ORDER BY deduplication_key`
          expect(rows.map((row) => row.key)).toEqual(["a", "b"])
        })
      )
    }
  )
