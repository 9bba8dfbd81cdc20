import { expect } from "@effect/vitest"
import { Chunk, DateTime, Duration, Effect, Either, Option, Stream } from "effect"
import { Document, DocumentStore, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const uuid = () => globalThis.crypto.randomUUID()
const documentId = (): Document.DocumentId => Document.DocumentId.make(`Document:${uuid()}`)

/** `length` bytes counting up from `seed`, so any reordering or loss shows. */
const bytesOf = (length: number, seed = 0) => Uint8Array.from({ length }, (_, i) => (i * 7 + seed) & 0xff)

/** The bytes as a stream of pieces of `size`, as a client's body arrives. */
const streamed = (bytes: Uint8Array, size = 65_536) =>
  Stream.fromIterable(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))
  )

const readAll = (platformId: Parameters<DocumentStore.DocumentStore["Type"]["read"]>[0], id: Document.DocumentId) =>
  Effect.gen(function* () {
    const store = yield* DocumentStore.DocumentStore
    const found = yield* store.read(platformId, id)
    if (Option.isNone(found)) return Option.none<Uint8Array>()
    const chunks = yield* Stream.runCollect(found.value)
    const whole = new Uint8Array(Chunk.reduce(chunks, 0, (sum, chunk) => sum + chunk.length))
    Chunk.reduce(chunks, 0, (offset, chunk) => {
      whole.set(chunk, offset)
      return offset + chunk.length
    })
    return Option.some(whole)
  })

/**
 * Document files: staged outside any unit of work and invisible until attached, attached with the record's unit of
 * work (rolled back with it), read back byte for byte, scoped to their platform, and staged leftovers purged.
 */
export const register = (it: Methods) => {
  it.effect("stages a multi-chunk file, attaches it and reads it back byte for byte, only within its platform", () =>
    Effect.gen(function* () {
      const store = yield* DocumentStore.DocumentStore
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const id = documentId()
      const bytes = bytesOf(DocumentStore.chunkBytes * 2 + 12_345)
      const uploadId = uuid()
      expect(yield* store.stage(platform.id, uploadId, streamed(bytes))).toBe(bytes.length)
      expect(yield* readAll(platform.id, id)).toEqual(Option.none())
      expect(yield* store.attach(other.id, uploadId, id)).toBe(false)
      expect(yield* store.attach(platform.id, uploadId, id)).toBe(true)
      expect(yield* store.attach(platform.id, uploadId, id)).toBe(false)
      const read = yield* readAll(platform.id, id)
      // Compared as one buffer: element-wise deep equality of half a megabyte takes seconds.
      expect(Option.isSome(read) && Buffer.compare(read.value, bytes) === 0).toBe(true)
      expect(yield* readAll(other.id, id)).toEqual(Option.none())
    })
  )

  it.effect("replaces a document's file on a second attach, and removes it (only its own platform's)", () =>
    Effect.gen(function* () {
      const store = yield* DocumentStore.DocumentStore
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const id = documentId()
      const [first, second] = [uuid(), uuid()]
      yield* store.stage(platform.id, first, streamed(bytesOf(100, 1)))
      yield* store.attach(platform.id, first, id)
      yield* store.stage(platform.id, second, streamed(bytesOf(50, 2)))
      expect(yield* store.attach(platform.id, second, id)).toBe(true)
      expect(yield* readAll(platform.id, id)).toEqual(Option.some(bytesOf(50, 2)))
      yield* store.remove(other.id, id)
      expect(yield* readAll(platform.id, id)).toEqual(Option.some(bytesOf(50, 2)))
      yield* store.remove(platform.id, id)
      expect(yield* readAll(platform.id, id)).toEqual(Option.none())
    })
  )

  it.effect("rolls an attach back with its unit of work: the document keeps its previous file", () =>
    Effect.gen(function* () {
      const store = yield* DocumentStore.DocumentStore
      const uow = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const id = documentId()
      const [first, second] = [uuid(), uuid()]
      yield* store.stage(platform.id, first, streamed(bytesOf(10, 1)))
      yield* store.attach(platform.id, first, id)
      yield* store.stage(platform.id, second, streamed(bytesOf(10, 2)))
      const failed = yield* Effect.either(
        uow.transaction(Effect.zipRight(store.attach(platform.id, second, id), Effect.fail("refused" as const)))
      )
      expect(failed).toEqual(Either.left("refused"))
      expect(yield* readAll(platform.id, id)).toEqual(Option.some(bytesOf(10, 1)))
      // The staged file is still there to attach or discard.
      yield* store.discard(platform.id, second)
      expect(yield* store.attach(platform.id, second, id)).toBe(false)
    })
  )

  it.effect("leaves nothing behind when the content fails mid-way, and passes the failure through", () =>
    Effect.gen(function* () {
      const store = yield* DocumentStore.DocumentStore
      const platform = yield* Fixtures.insertPlatform
      const uploadId = uuid()
      const failing = Stream.concat(streamed(bytesOf(DocumentStore.chunkBytes + 10)), Stream.fail("cut" as const))
      expect(yield* Effect.either(store.stage(platform.id, uploadId, failing))).toEqual(Either.left("cut"))
      expect(yield* store.attach(platform.id, uploadId, documentId())).toBe(false)
    })
  )

  it.effect("purges staged files begun before the cut-off, never attached ones", () =>
    Effect.gen(function* () {
      const store = yield* DocumentStore.DocumentStore
      const platform = yield* Fixtures.insertPlatform
      const id = documentId()
      const [kept, staged] = [uuid(), uuid()]
      yield* store.stage(platform.id, kept, streamed(bytesOf(10)))
      yield* store.attach(platform.id, kept, id)
      yield* store.stage(platform.id, staged, streamed(bytesOf(10)))
      const now = yield* DateTime.now
      expect(yield* store.purgeStaged(DateTime.subtract(now, { hours: 1 }), 100)).toBe(0)
      expect(yield* store.purgeStaged(DateTime.addDuration(now, Duration.seconds(5)), 1_000)).toBeGreaterThanOrEqual(1)
      expect(yield* store.attach(platform.id, staged, documentId())).toBe(false)
      expect(yield* readAll(platform.id, id)).toEqual(Option.some(bytesOf(10)))
    })
  )
}
