import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { ContactCode, ContactCodeRepo, Customer, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const customerId = () => Customer.CustomerId.make(`Customer:${globalThis.crypto.randomUUID()}`)

const code = (
  owner: Customer.CustomerId,
  channel: ContactCode.ContactChannel = "email",
  failedAttempts = 0
): ContactCode.ContactCode =>
  new ContactCode.ContactCode({
    id: globalThis.crypto.randomUUID(),
    customerId: owner,
    channel,
    destination: channel === "email" ? "ada@example.com" : "+447700900123",
    codeDigest: globalThis.crypto.randomUUID().replaceAll("-", "").repeat(2),
    expiresAt: Fixtures.at(600_000),
    failedAttempts
  })

/**
 * Contact codes: one per (customer, channel) and platform, replaced by a new one, taken once (by one of any number of
 * concurrent correct confirms, never once replaced), and every wrong code counted.
 */
export const register = (it: Methods) => {
  it.effect("finds the code put last for a customer's channel, every field intact, only within its own platform", () =>
    Effect.gen(function* () {
      const repo = yield* ContactCodeRepo.ContactCodeRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const owner = customerId()
      const email = code(owner, "email", 2)
      const phone = code(owner, "phone")
      yield* repo.put(mine.id, email)
      yield* repo.put(mine.id, phone)
      expect(yield* repo.find(mine.id, owner, "email")).toEqual(Option.some(email))
      expect(yield* repo.find(mine.id, owner, "phone")).toEqual(Option.some(phone))
      expect(yield* repo.find(other.id, owner, "email")).toEqual(Option.none())
      expect(yield* repo.find(mine.id, customerId(), "email")).toEqual(Option.none())
      const replacement = code(owner, "email")
      yield* repo.put(mine.id, replacement)
      expect(yield* repo.find(mine.id, owner, "email")).toEqual(Option.some(replacement))
    })
  )

  it.effect("takes a code once, never one replaced meanwhile, and lets exactly one of 64 concurrent takes win", () =>
    Effect.gen(function* () {
      const repo = yield* ContactCodeRepo.ContactCodeRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const owner = customerId()
      const first = code(owner)
      const second = code(owner)
      yield* repo.put(platform.id, first)
      yield* repo.put(platform.id, second)
      expect(yield* repo.take(platform.id, owner, "email", first.id)).toBe(false)
      expect(yield* repo.take(other.id, owner, "email", second.id)).toBe(false)
      expect(yield* repo.take(platform.id, owner, "phone", second.id)).toBe(false)
      const taken = yield* Effect.all(
        Array.from({ length: 64 }, () => repo.take(platform.id, owner, "email", second.id)),
        { concurrency: "unbounded" }
      )
      expect(taken.filter((each) => each)).toHaveLength(1)
      expect(yield* repo.find(platform.id, owner, "email")).toEqual(Option.none())
    })
  )

  it.effect("keeps a code taken by a unit of work that failed", () =>
    Effect.gen(function* () {
      const repo = yield* ContactCodeRepo.ContactCodeRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const sent = code(customerId())
      yield* repo.put(platform.id, sent)
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(repo.take(platform.id, sent.customerId, "email", sent.id), Effect.fail("abandoned" as const))
        )
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.find(platform.id, sent.customerId, "email")).toEqual(Option.some(sent))
    })
  )

  it.effect("counts every wrong code against the code with its id, concurrent ones included", () =>
    Effect.gen(function* () {
      const repo = yield* ContactCodeRepo.ContactCodeRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const sent = code(customerId())
      const owner = sent.customerId
      yield* repo.put(platform.id, sent)
      expect(yield* repo.recordFailure(platform.id, owner, "email", sent.id)).toBe(1)
      expect(yield* repo.recordFailure(other.id, owner, "email", sent.id)).toBe(0)
      expect(yield* repo.recordFailure(platform.id, owner, "email", "another-id")).toBe(0)
      const counts = yield* Effect.all(
        Array.from({ length: 16 }, () => repo.recordFailure(platform.id, owner, "email", sent.id)),
        { concurrency: "unbounded" }
      )
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, index) => index + 2))
      expect(yield* repo.find(platform.id, owner, "email")).toEqual(
        Option.some(new ContactCode.ContactCode({ ...sent, failedAttempts: 17 }))
      )
    })
  )
}
