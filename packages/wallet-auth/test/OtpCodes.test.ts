import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Ids } from "@payrail/core"
import { OtpCodes } from "../src/index.js"

/** An `Ids` whose random bytes are the given batches, one per call. */
const scripted = (...batches: ReadonlyArray<ReadonlyArray<number>>) => {
  let call = 0
  return Layer.succeed(Ids.Ids, {
    uuid: Effect.succeed("00000000-0000-4000-8000-000000000000"),
    randomBytes: (length) =>
      Effect.sync(() => {
        const batch = batches[call++] ?? []
        return Uint8Array.from({ length }, (_, i) => batch[i] ?? 0)
      })
  })
}

describe("OtpCodes.generate", () => {
  it.effect("rejects the bytes that would bias the code (250-255 for digits) and draws again", () =>
    Effect.gen(function* () {
      const code = yield* OtpCodes.generate({ length: 4, alphanumeric: false }).pipe(
        Effect.provide(scripted([250, 255, 0, 11, 249, 252, 13, 7], [3, 254, 0, 0]))
      )
      expect(code).toBe("0193")
    })
  )

  it.effect("maps bytes below 252 onto A-Z0-9 and rejects 252-255", () =>
    Effect.gen(function* () {
      const code = yield* OtpCodes.generate({ length: 4, alphanumeric: true }).pipe(
        Effect.provide(scripted([252, 0, 25, 26, 255, 35, 36, 251]))
      )
      expect(code).toBe("AZ09")
    })
  )

  it.effect("makes codes of the asked length from the asked alphabet, every character about equally often", () =>
    Effect.gen(function* () {
      const counts = new Map<string, number>()
      for (let i = 0; i < 400; i++) {
        const digits = yield* OtpCodes.generate({ length: 6, alphanumeric: false })
        const mixed = yield* OtpCodes.generate({ length: 8, alphanumeric: true })
        expect(digits).toMatch(/^[0-9]{6}$/)
        expect(mixed).toMatch(/^[A-Z0-9]{8}$/)
        for (const c of digits) counts.set(c, (counts.get(c) ?? 0) + 1)
      }
      // 2400 digits: each about 240; a fair generator stays well inside 150-330.
      for (const digit of OtpCodes.DIGITS) expect(counts.get(digit)).toBeGreaterThan(150)
      for (const digit of OtpCodes.DIGITS) expect(counts.get(digit)).toBeLessThan(330)
    }).pipe(Effect.provide(Ids.layer))
  )

  it.effect("refuses a length outside 1 to 64 as a defect", () =>
    Effect.gen(function* () {
      for (const length of [0, 65, 2.5]) {
        const exit = yield* Effect.exit(OtpCodes.generate({ length, alphanumeric: false }))
        expect(exit._tag).toBe("Failure")
      }
    }).pipe(Effect.provide(Ids.layer))
  )
})

describe("OtpCodes.digest", () => {
  it("is the lowercase hex SHA-256 of the upper-cased code, so case does not matter", () => {
    const expected = createHash("sha256").update("AB12CD").digest("hex")
    expect(OtpCodes.digest("ab12cd")).toBe(expected)
    expect(OtpCodes.digest("AB12CD")).toBe(expected)
    expect(OtpCodes.digest("000000")).toBe(createHash("sha256").update("000000").digest("hex"))
    expect(OtpCodes.digest("000001")).not.toBe(OtpCodes.digest("000000"))
  })
})
