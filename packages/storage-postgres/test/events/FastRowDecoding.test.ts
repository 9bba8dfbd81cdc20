import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Either, Schema } from "effect"
import * as fc from "fast-check"
import { fastSourceRow, SourceRow } from "../../src/events/internal/attemptSourceRow.js"
import { ClaimedRow, fastClaimedRow } from "../../src/events/internal/jobRows.js"
import { decodeRows, type FastDecoder } from "../../src/internal/rowDecoding.js"

// A row as a driver gives it: the schema's encoded form, with `jsonb` columns parsed from their JSON text.
const asDriverRow =
  (jsonColumns: ReadonlyArray<string>) =>
  (encoded: object): Record<string, unknown> => {
    const row: Record<string, unknown> = { ...encoded }
    for (const column of jsonColumns) {
      const value = row[column]
      if (value !== null && value !== undefined) row[column] = JSON.parse(JSON.stringify(value)) as unknown
    }
    return row
  }

// Whether a value holds an own `__proto__` key at any depth. `JSON.parse` of a `jsonb` column keeps such a key as
// data; the schema's `Record` rebuilds an object by assignment, which turns the key into a prototype (or drops it).
// The fast decoders keep the data as stored, which is what a webhook sends: the two answers differ there by design.
const holdsProtoKey = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  (Object.prototype.hasOwnProperty.call(value, "__proto__") || Object.values(value).some(holdsProtoKey))

// Each fast decoder against its schema: on every row a driver could give, it answers what the schema decodes; on
// a row with any one column replaced by anything, it answers the schema's value, or nothing when the schema
// rejects the row (which then decodes, and reports, the row).
const holdsToSchema = <A, I extends object>(
  name: string,
  schema: Schema.Schema<A, I>,
  fast: FastDecoder<A>,
  options: { readonly jsonColumns: ReadonlyArray<string>; readonly fastOn: (row: Record<string, unknown>) => boolean }
) =>
  describe(name, () => {
    const decode = Schema.decodeUnknownEither(schema)
    const rows = Arbitrary.make(schema).map(Schema.encodeSync(schema)).map(asDriverRow(options.jsonColumns))

    it("decodes every well-formed row as the schema does", () => {
      let accepted = 0
      fc.assert(
        fc.property(rows, (row) => {
          const quick = fast(row)
          const checked = decode(row)
          expect(Either.isRight(checked)).toBe(true)
          if (options.fastOn(row)) {
            expect(quick).toStrictEqual(Either.getOrThrow(checked))
            accepted++
          } else {
            expect(quick).toBeUndefined()
          }
        }),
        { numRuns: 300 }
      )
      expect(accepted).toBeGreaterThan(0)
    })

    it("accepts no row the schema rejects, and gives the schema's value for any it accepts", () => {
      const mutated = rows.chain((row) =>
        fc
          .tuple(
            fc.constantFrom(...Object.keys(row)),
            fc.anything({ withDate: true, withNullPrototype: true }).filter((value) => !holdsProtoKey(value))
          )
          .map(([column, value]) => ({ ...row, [column]: value }))
      )
      fc.assert(
        fc.property(mutated, (row) => {
          const quick = fast(row)
          const checked = decode(row)
          if (Either.isLeft(checked)) expect(quick).toBeUndefined()
          else if (quick !== undefined) expect(quick).toStrictEqual(checked.right)
        }),
        { numRuns: 1_000 }
      )
    })

    it.effect("decodes a batch row by row, the schema reporting a row the fast decoder leaves", () =>
      Effect.gen(function* () {
        const [good] = fc.sample(rows.filter(options.fastOn), 1)
        if (good === undefined) return yield* Effect.dieMessage("no sample")
        const decodeAll = decodeRows(schema, fast)
        expect(yield* decodeAll([good, good])).toHaveLength(2)
        const failure = yield* Effect.flip(decodeAll([good, { ...good, id: "not an id" }]))
        expect(failure._tag).toBe("ParseError")
        expect(failure.message).toContain("not an id")
      })
    )
  })

describe("a `__proto__` key in stored JSON", () => {
  const stored = JSON.parse('{"__proto__": {"polluted": true}, "amount": 1}') as unknown

  it("is kept by fastSourceRow as data, as stored and as a webhook sends it", () => {
    const row = fastSourceRow({
      ord: 1,
      id: "Webhook:019a0000-0000-7000-8000-000000000001",
      platform_id: "Platform:019a0000-0000-7000-8000-000000000002",
      type: "CUSTOMER.CREATED",
      timestamp: new Date(0),
      data: stored,
      url: null,
      environment: null,
      secrets: [],
      delivery: null
    })
    expect(row?.data).toBe(stored)
    expect(JSON.stringify(row?.data)).toBe('{"__proto__":{"polluted":true},"amount":1}')
    expect(Object.getPrototypeOf(row?.data)).toBe(Object.prototype)
  })
})

holdsToSchema("fastClaimedRow", ClaimedRow, fastClaimedRow, {
  jsonColumns: ["payload"],
  fastOn: () => true
})

holdsToSchema("fastSourceRow", SourceRow, fastSourceRow, {
  jsonColumns: ["data", "delivery"],
  // A row with a stored delivery is the schema's to decode.
  fastOn: (row) => row["delivery"] === null
})
