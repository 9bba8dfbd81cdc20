import { expect } from "@effect/vitest"
import { Array as Arr, Effect, Either, Option } from "effect"
import { Document, DocumentRepo, Page, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as VerificationFixtures from "./VerificationFixtures.js"

const firstPage = (limit: number): Page.PageRequest => ({ limit, after: Option.none() })

const renamed = (
  stored: DocumentRepo.StoredDocument,
  fileName: string,
  version: number
): DocumentRepo.StoredDocument => ({
  ...stored,
  document: new Document.Document({ ...stored.document, fileName, updatedAt: Fixtures.at(60_000) }),
  version
})

/**
 * Document records: scoped to their platform, paged newest first, listed per holder oldest first, replaced by
 * compare-and-set (one of many concurrent writers), never deleted once submitted (also when the deletion races the
 * submission), and undone with a failed unit of work.
 */
export const register = (it: Methods) => {
  it.effect("finds a document as inserted, at version 1, only within its own platform; an id is inserted once", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stored = VerificationFixtures.document(VerificationFixtures.customerId(), { offsetMillis: 1_234 })
      yield* repo.insert(mine.id, { ...stored, version: 7 })
      expect(yield* repo.findById(mine.id, stored.document.id)).toEqual(Option.some(stored))
      expect(yield* repo.findById(other.id, stored.document.id)).toEqual(Option.none())
      const again = yield* Effect.either(repo.insert(mine.id, renamed(stored, "other.pdf", 1)))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(mine.id, stored.document.id)).toEqual(Option.some(stored))
    })
  )

  it.effect("pages a platform's documents newest first by (createdAt, id), of one holder when asked, with counts", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const holder = VerificationFixtures.customerId()
      const owner = VerificationFixtures.beneficialOwnerId()
      // Pairs share a creation instant, so the id decides their order.
      const documents = Array.from({ length: 7 }, (_, index) =>
        VerificationFixtures.document(index % 3 === 0 ? owner : holder, { offsetMillis: Math.floor(index / 2) * 1000 })
      )
      for (const stored of documents) yield* repo.insert(platform.id, stored)
      yield* repo.insert(other.id, VerificationFixtures.document(holder))
      const newestFirst = documents.map((stored) => stored.document).sort((a, b) => Page.compareNewestFirst(a, b))

      const seen: Array<string> = []
      let request = firstPage(3)
      for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
        const page = yield* repo.list(platform.id, {}, request)
        expect(page.totalCount).toBe(7)
        seen.push(...page.data.map((document) => document.id))
        expect(page.hasMore).toBe(pageNumber < 2)
        if (page.nextCursor !== undefined) {
          request = { limit: 3, after: Option.some(yield* Page.decodeCursor(page.nextCursor)) }
        }
      }
      expect(seen).toEqual(newestFirst.map((document) => document.id))

      const ofOwner = yield* repo.list(platform.id, { documentHolder: owner }, firstPage(10))
      expect(ofOwner.data).toEqual(newestFirst.filter((document) => document.documentHolder === owner))
      expect(ofOwner.totalCount).toBe(3)
      expect(ofOwner.hasMore).toBe(false)
      expect((yield* repo.list(other.id, { documentHolder: owner }, firstPage(10))).data).toEqual([])
    })
  )

  it.effect("lists every document of the given holders oldest first, on its platform only", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customer = VerificationFixtures.customerId()
      const owner = VerificationFixtures.beneficialOwnerId()
      const later = VerificationFixtures.document(owner, { offsetMillis: 2_000 })
      const earlier = VerificationFixtures.document(customer, { offsetMillis: 1_000 })
      const unrelated = VerificationFixtures.document(VerificationFixtures.customerId())
      for (const stored of [later, earlier, unrelated]) yield* repo.insert(platform.id, stored)
      yield* repo.insert(other.id, VerificationFixtures.document(customer))

      expect(yield* repo.listByHolders(platform.id, [customer, owner])).toEqual([earlier, later])
      expect(yield* repo.listByHolders(platform.id, [owner])).toEqual([later])
      expect(yield* repo.listByHolders(platform.id, [])).toEqual([])
    })
  )

  it.effect("replaces a document only at the version it was read at, storing the next version", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stored = VerificationFixtures.document(VerificationFixtures.customerId())
      yield* repo.insert(platform.id, stored)
      const next = renamed(stored, "passport.pdf", 2)
      expect(yield* repo.replace(other.id, next, 1)).toBe(false)
      expect(yield* repo.replace(platform.id, next, 1)).toBe(true)
      expect(yield* repo.replace(platform.id, renamed(stored, "stale.png", 2), 1)).toBe(false)
      expect(yield* repo.findById(platform.id, stored.document.id)).toEqual(Option.some(next))
      const missing = VerificationFixtures.document(VerificationFixtures.customerId())
      expect(yield* repo.replace(platform.id, missing, 1)).toBe(false)
      expect(yield* repo.findById(platform.id, missing.document.id)).toEqual(Option.none())
    })
  )

  it.effect("lets exactly one of 16 concurrent replacements from one version apply", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = VerificationFixtures.document(VerificationFixtures.customerId())
      yield* repo.insert(platform.id, stored)
      const applied = yield* Effect.all(
        Array.from({ length: 16 }, (_, index) => repo.replace(platform.id, renamed(stored, `file-${index}.pdf`, 2), 1)),
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const found = Option.getOrThrow(yield* repo.findById(platform.id, stored.document.id))
      expect(found.version).toBe(2)
      expect(found.document.fileName).toBe(`file-${applied.indexOf(true)}.pdf`)
    })
  )

  it.effect("deletes an unsubmitted document; refuses a submitted one; answers missing for another platform's", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const holder = VerificationFixtures.customerId()
      const draft = VerificationFixtures.document(holder)
      const submitted = VerificationFixtures.document(holder)
      yield* repo.insert(platform.id, draft)
      yield* repo.insert(platform.id, submitted)
      yield* repo.markSubmitted(platform.id, [submitted.document.id], Fixtures.at(5_000))

      expect(yield* repo.delete(other.id, draft.document.id)).toBe("missing")
      expect(yield* repo.delete(platform.id, draft.document.id)).toBe("deleted")
      expect(yield* repo.findById(platform.id, draft.document.id)).toEqual(Option.none())
      expect(yield* repo.delete(platform.id, draft.document.id)).toBe("missing")
      expect(yield* repo.delete(platform.id, submitted.document.id)).toBe("submitted")
      expect(Option.isSome(yield* repo.findById(platform.id, submitted.document.id))).toBe(true)
    })
  )

  it.effect("marks documents submitted once: the first time stays, each marking bumps the version", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const holder = VerificationFixtures.customerId()
      const first = VerificationFixtures.document(holder)
      const second = VerificationFixtures.document(holder)
      const elsewhere = VerificationFixtures.document(holder)
      yield* repo.insert(platform.id, first)
      yield* repo.insert(platform.id, second)
      yield* repo.insert(other.id, elsewhere)

      yield* repo.markSubmitted(platform.id, [first.document.id], Fixtures.at(1_000))
      yield* repo.markSubmitted(
        platform.id,
        [first.document.id, second.document.id, elsewhere.document.id],
        Fixtures.at(2_000)
      )
      yield* repo.markSubmitted(platform.id, [], Fixtures.at(3_000))

      expect(yield* repo.findById(platform.id, first.document.id)).toEqual(
        Option.some({ ...first, submittedAt: Option.some(Fixtures.at(1_000)), version: 3 })
      )
      expect(yield* repo.findById(platform.id, second.document.id)).toEqual(
        Option.some({ ...second, submittedAt: Option.some(Fixtures.at(2_000)), version: 2 })
      )
      expect(yield* repo.findById(other.id, elsewhere.document.id)).toEqual(Option.some(elsewhere))
      // A replacement from the marked version stores what it is given: a new file is not submitted yet.
      expect(yield* repo.replace(platform.id, { ...renamed(first, "new.pdf", 4), submittedAt: Option.none() }, 3)).toBe(
        true
      )
      expect(yield* repo.delete(platform.id, first.document.id)).toBe("deleted")
    })
  )

  it.effect(
    "resolves a deletion racing a submission either way, never both: deleted and gone, or refused and kept",
    () =>
      Effect.gen(function* () {
        const repo = yield* DocumentRepo.DocumentRepo
        const platform = yield* Fixtures.insertPlatform
        const documents = Array.from({ length: 16 }, () =>
          VerificationFixtures.document(VerificationFixtures.customerId())
        )
        for (const stored of documents) yield* repo.insert(platform.id, stored)
        const outcomes = yield* Effect.all(
          documents.map((stored) =>
            Effect.map(
              Effect.all(
                [
                  repo.delete(platform.id, stored.document.id),
                  repo.markSubmitted(platform.id, [stored.document.id], Fixtures.at(1_000))
                ],
                { concurrency: "unbounded" }
              ),
              ([outcome]) => outcome
            )
          ),
          { concurrency: "unbounded" }
        )
        for (const [stored, outcome] of Arr.zip(documents, outcomes)) {
          const found = yield* repo.findById(platform.id, stored.document.id)
          if (outcome === "deleted") expect(found).toEqual(Option.none())
          else {
            expect(outcome).toBe("submitted")
            expect(Option.flatMap(found, (stored) => stored.submittedAt)).toEqual(Option.some(Fixtures.at(1_000)))
          }
        }
      })
  )

  it.effect("undoes every write of a unit of work that fails", () =>
    Effect.gen(function* () {
      const repo = yield* DocumentRepo.DocumentRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const holder = VerificationFixtures.customerId()
      const kept = VerificationFixtures.document(holder)
      const deleted = VerificationFixtures.document(holder)
      const added = VerificationFixtures.document(holder)
      yield* repo.insert(platform.id, kept)
      yield* repo.insert(platform.id, deleted)
      const failed = yield* Effect.either(
        store.transaction(
          Effect.gen(function* () {
            yield* repo.insert(platform.id, added)
            yield* repo.replace(platform.id, renamed(kept, "changed.pdf", 2), 1)
            yield* repo.markSubmitted(platform.id, [kept.document.id], Fixtures.at(1))
            yield* repo.delete(platform.id, deleted.document.id)
            return yield* Effect.fail("no" as const)
          })
        )
      )
      expect(failed).toEqual(Either.left("no"))
      expect(yield* repo.listByHolders(platform.id, [holder])).toEqual(
        [kept, deleted].sort((a, b) => Page.compareNewestFirst(b.document, a.document))
      )
    })
  )
}
