import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, DateTime, Either, ParseResult, Schema } from "effect"
import * as fc from "fast-check"
import { ResourceId, SchemaClass } from "@payrail/core"

// Fields as records have them: a branded id, timestamps (encoded as ISO text), optional and nested fields, literals
// and refinements.
const fields = {
  id: ResourceId.make("Thing"),
  status: Schema.Literal("ACTIVE", "CLOSED"),
  count: Schema.Int.pipe(Schema.nonNegative()),
  note: Schema.optional(Schema.String.pipe(Schema.maxLength(8))),
  owner: Schema.optional(Schema.Struct({ name: Schema.String, since: Schema.DateTimeUtc })),
  createdAt: Schema.DateTimeUtc
}

class EffectThing extends Schema.Class<EffectThing>("Thing")(fields) {}
class Thing extends SchemaClass.Class<Thing>("Thing")(fields) {
  get label(): string {
    return `${this.id} (${this.status})`
  }
}

const construct = <A>(make: () => A): Either.Either<A, string> => {
  try {
    return Either.right(make())
  } catch (error) {
    return Either.left(error instanceof ParseResult.ParseError ? `ParseError: ${error.message}` : String(error))
  }
}

const valid = Arbitrary.make(Schema.Struct(fields))
const fieldName = fc.constantFrom(...Object.keys(fields), "extra")
// A valid input with one field replaced by anything at all (or removed).
const mutated = fc
  .tuple(valid, fieldName, fc.oneof(fc.anything(), fc.date(), fc.constant(undefined)))
  .map(([props, name, value]) => ({ ...props, [name]: value }))

describe("SchemaClass.Class", () => {
  it("accepts and rejects what Schema.Class accepts and rejects, with the same error and the same instance", () => {
    fc.assert(
      fc.property(fc.oneof(valid, mutated), (props) => {
        const ours = construct(() => new Thing(props as never))
        const effects = construct(() => new EffectThing(props as never))
        expect(Either.map(ours, (thing) => ({ ...thing }))).toStrictEqual(
          Either.map(effects, (thing) => ({ ...thing }))
        )
        if (Either.isRight(ours)) {
          expect(ours.right).toBeInstanceOf(Thing)
          expect(Schema.encodeSync(Thing)(ours.right)).toStrictEqual(
            Schema.encodeSync(EffectThing)(effects.pipe(Either.getOrThrow))
          )
        }
      }),
      { numRuns: 500 }
    )
  })

  it("keeps only the declared fields, and its own members", () => {
    const createdAt = DateTime.unsafeMake("2026-11-27T04:00:00Z")
    const props = { id: "Thing:0195c5a8-9a9b-7c1d-8e2f-0123456789ab", status: "ACTIVE", count: 1, createdAt }
    const thing = new Thing({ ...props, extra: "dropped" } as never)
    expect(Object.keys(thing)).toStrictEqual(["id", "status", "count", "createdAt"])
    expect(thing.label).toBe("Thing:0195c5a8-9a9b-7c1d-8e2f-0123456789ab (ACTIVE)")
    expect(Schema.is(Thing)(thing)).toBe(true)
    expect(Schema.is(Thing)({ ...props })).toBe(false)
  })

  it("skips validation when asked, as Schema.Class does", () => {
    const createdAt = DateTime.unsafeMake("2026-11-27T04:00:00Z")
    const unchecked = { id: "not an id", status: "ACTIVE", count: -1, createdAt } as never
    expect(new Thing(unchecked, true).count).toBe(-1)
    expect(new Thing(unchecked, { disableValidation: true }).id).toBe("not an id")
    expect(() => new Thing(unchecked)).toThrow(ParseResult.ParseError)
  })

  it("decodes and encodes as instances of the class", () => {
    const decoded = Schema.decodeUnknownSync(Thing)({
      id: "Thing:0195c5a8-9a9b-7c1d-8e2f-0123456789ab",
      status: "CLOSED",
      count: 2,
      createdAt: "2026-11-27T04:00:00.000Z"
    })
    expect(decoded).toBeInstanceOf(Thing)
    expect(decoded.label).toBe("Thing:0195c5a8-9a9b-7c1d-8e2f-0123456789ab (CLOSED)")
    expect(Schema.encodeSync(Thing)(decoded).createdAt).toBe("2026-11-27T04:00:00.000Z")
  })

  it("fills constructor defaults as Schema.Class does", () => {
    class Defaulted extends SchemaClass.Class<Defaulted>("Defaulted")({
      name: Schema.String,
      tries: Schema.optionalWith(Schema.Int, { default: () => 3 })
    }) {}
    expect(new Defaulted({ name: "a" }).tries).toBe(3)
    expect(() => new Defaulted({ name: "a", tries: 1.5 })).toThrow(ParseResult.ParseError)
  })
})
