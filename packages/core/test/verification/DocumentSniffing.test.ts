import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Option, Stream } from "effect"
import { DocumentSniffing } from "@payrail/core"

const bytes = (...values: ReadonlyArray<number>) => Uint8Array.from(values)
const text = (value: string) => new TextEncoder().encode(value)
const jpeg = bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46)
const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00)
const pdf = text("%PDF-1.4\n%\u00e2\u00e3\n")

// Runs `inspect` over `chunks`; answers the failure's tag or what it learned, and the bytes that passed.
const run = (chunks: ReadonlyArray<Uint8Array>, max = 1024) =>
  Effect.gen(function* () {
    const { checked, result } = yield* DocumentSniffing.inspect(Stream.fromIterable(chunks), max)
    const passed = yield* Effect.either(Stream.runCollect(checked))
    if (passed._tag === "Left") return { failure: passed.left._tag }
    return { inspected: Option.getOrNull(yield* result), bytes: Chunk.toArray(passed.right).flatMap((c) => [...c]) }
  })

describe("DocumentSniffing.sniff", () => {
  it("recognises JPEG, PNG and PDF by their magic bytes", () => {
    expect(DocumentSniffing.sniff(jpeg)).toEqual(Option.some("image/jpeg"))
    expect(DocumentSniffing.sniff(png)).toEqual(Option.some("image/png"))
    expect(DocumentSniffing.sniff(pdf)).toEqual(Option.some("application/pdf"))
  })

  it("refuses anything else, whatever it is called: text, a truncated signature, nothing", () => {
    expect(DocumentSniffing.sniff(text("hello, I am passport.jpg"))).toEqual(Option.none())
    expect(DocumentSniffing.sniff(bytes(0x89, 0x50, 0x4e, 0x47))).toEqual(Option.none())
    expect(DocumentSniffing.sniff(text("%PDF"))).toEqual(Option.none())
    expect(DocumentSniffing.sniff(bytes())).toEqual(Option.none())
    expect(DocumentSniffing.sniff(bytes(0x00, 0xff, 0xd8, 0xff))).toEqual(Option.none())
  })
})

describe("DocumentSniffing.inspect", () => {
  it.effect("passes the bytes through unchanged and reports type and size, even when the head is split", () =>
    Effect.gen(function* () {
      const split = [png.subarray(0, 1), png.subarray(1, 5), png.subarray(5)]
      expect(yield* run(split)).toEqual({ inspected: { contentType: "image/png", sizeBytes: 10 }, bytes: [...png] })
      expect(yield* run([jpeg])).toEqual({ inspected: { contentType: "image/jpeg", sizeBytes: 10 }, bytes: [...jpeg] })
      expect(yield* run([bytes(0xff, 0xd8, 0xff)])).toMatchObject({ inspected: { contentType: "image/jpeg" } })
    })
  )

  it.effect("refuses a renamed text file and an empty file as unsupported", () =>
    Effect.gen(function* () {
      expect(yield* run([text("just some text, not a picture")])).toEqual({ failure: "DocumentFileUnsupported" })
      expect(yield* run([text("ab")])).toEqual({ failure: "DocumentFileUnsupported" })
      expect(yield* run([])).toEqual({ failure: "DocumentFileUnsupported" })
    })
  )

  it.effect("refuses a file over the limit as soon as it passes it, and accepts one exactly at it", () =>
    Effect.gen(function* () {
      let pulled = 0
      const endless = Stream.repeatEffect(Effect.sync(() => (pulled++ === 0 ? jpeg : new Uint8Array(10))))
      const { checked } = yield* DocumentSniffing.inspect(endless, 100)
      const outcome = yield* Effect.either(Stream.runDrain(checked))
      expect(outcome._tag === "Left" && outcome.left._tag).toBe("DocumentFileTooLarge")
      expect(pulled).toBe(11)
      expect(yield* run([jpeg, new Uint8Array(90)], 100)).toMatchObject({ inspected: { sizeBytes: 100 } })
    })
  )
})
