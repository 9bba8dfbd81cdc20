import fc from "fast-check"
import type { Api, Schema } from "./Operations.js"

/** Where a generated value needs the id of a resource that exists; replaced when the request is built. */
export class ExistingId {
  constructor(
    readonly resourceType: string,
    readonly pick: number
  ) {}
}

/** A JSON value, possibly holding `ExistingId` placeholders. */
export type Value = null | boolean | number | string | ExistingId | ReadonlyArray<Value> | { [key: string]: Value }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const numberOr = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback)

/** Real values of the formats whose rules a pattern cannot carry (check digits, registries). */
const samples: Readonly<Record<string, ReadonlyArray<string>>> = {
  "iso3166-1-alpha-2": ["US", "GB", "DE", "MX", "BR", "NG", "IN"],
  "aba-routing-number": ["021000021", "011000015"],
  iban: ["GB82WEST12345698765432", "DE89370400440532013000", "FR1420041010050500013M02606"],
  bic: ["DEUTDEFF", "NWBKGB2L"],
  clabe: ["032180000118359719"],
  "us-ssn": ["123-45-6789"],
  "evm-address": ["0x52908400098527886E0F7030069857D2E4169EE7"],
  "e.164": ["+14155550123", "+447911123456"]
}

const plainText = (minLength: number, maxLength: number) =>
  fc
    .string({ unit: "grapheme-ascii", minLength: Math.max(1, minLength), maxLength: Math.max(1, maxLength) })
    .map((text) => (text.trim() === "" ? `x${text}`.slice(0, Math.max(1, maxLength)) : text))

/**
 * Values that a schema of the document accepts, as far as JSON Schema says (formats with checksums, such as IBANs,
 * are matched by pattern only, so the server refuses some): the "valid" starting point every mutation breaks.
 */
export const valuesOf = (api: Api): ((schema: Schema) => fc.Arbitrary<Value>) => {
  const cache = new Map<Schema, fc.Arbitrary<Value>>()
  const patterns = new Map<string, fc.Arbitrary<string> | undefined>()

  const matching = (pattern: string): fc.Arbitrary<string> | undefined => {
    if (!patterns.has(pattern)) {
      try {
        patterns.set(pattern, fc.stringMatching(new RegExp(pattern)))
      } catch {
        // fast-check cannot generate from some regular expressions (lookaheads); plain text stands in for them.
        patterns.set(pattern, undefined)
      }
    }
    return patterns.get(pattern)
  }

  const string = (schema: Schema): fc.Arbitrary<Value> => {
    const minLength = numberOr(schema["minLength"], 1)
    const maxLength = Math.min(numberOr(schema["maxLength"], 40), 40)
    const format = schema["format"]
    const description = typeof schema["description"] === "string" ? schema["description"] : ""
    if (format === "email") return fc.constantFrom("ada@example.com", "fuzz.user+tag@example.org")
    if (format === "date") return fc.constantFrom("1990-05-17", "2000-02-29", "1969-12-31")
    if (format === "date-time" || /DateTime/.test(description)) {
      return fc.constantFrom("2024-01-01T00:00:00Z", "2030-06-15T12:30:00.000Z", "1999-12-31T23:59:59Z")
    }
    const pattern = schema["pattern"]
    const known = (typeof format === "string" ? samples[format] : undefined)?.filter(
      (sample) => typeof pattern !== "string" || new RegExp(pattern).test(sample)
    )
    if (known !== undefined && known.length > 0) return fc.constantFrom(...known)
    const fromPattern = typeof pattern === "string" ? matching(pattern) : undefined
    if (fromPattern !== undefined) return fromPattern.filter((text) => text.length >= minLength)
    return plainText(minLength, maxLength)
  }

  const generate = (input: Schema, depth: number): fc.Arbitrary<Value> => {
    const schema = api.resolve(input)
    const resourceType = api.resourceTypeOf(schema)
    if (resourceType !== undefined) return fc.nat().map((pick) => new ExistingId(resourceType, pick))
    if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) {
      return fc.constantFrom(...(schema["enum"] as ReadonlyArray<Value>))
    }
    if ("const" in schema) return fc.constant(schema["const"] as Value)
    const union = schema["anyOf"] ?? schema["oneOf"]
    if (Array.isArray(union) && union.length > 0) {
      return fc.oneof(...union.filter(isObject).map((member) => generate(member, depth)))
    }
    const type = schema["type"]
    if (type === undefined && Array.isArray(schema["allOf"]) && isObject(schema["allOf"][0])) {
      return generate(schema["allOf"][0], depth)
    }
    switch (type) {
      case "object": {
        const properties = isObject(schema["properties"]) ? schema["properties"] : {}
        const required = Array.isArray(schema["required"]) ? schema["required"].map(String) : []
        if (depth > 6) return fc.constant({})
        const model: Record<string, fc.Arbitrary<Value>> = {}
        for (const [key, property] of Object.entries(properties)) {
          if (isObject(property)) model[key] = generate(property, depth + 1)
        }
        return fc.record(model, { requiredKeys: required.filter((key) => key in model) }) as fc.Arbitrary<Value>
      }
      case "array": {
        const items = isObject(schema["items"]) ? schema["items"] : {}
        const minLength = numberOr(schema["minItems"], 0)
        const constraints = { minLength, maxLength: Math.max(minLength, Math.min(numberOr(schema["maxItems"], 3), 3)) }
        return schema["uniqueItems"] === true
          ? fc.uniqueArray(generate(items, depth + 1), { ...constraints, selector: (item) => JSON.stringify(item) })
          : fc.array(generate(items, depth + 1), constraints)
      }
      case "string":
        return string(schema)
      case "integer": {
        const exclusive = schema["exclusiveMinimum"]
        const min = typeof exclusive === "number" ? exclusive + 1 : numberOr(schema["minimum"], 0)
        return fc.integer({ min, max: Math.max(min, Math.min(numberOr(schema["maximum"], 1_000_000), 1_000_000)) })
      }
      case "number":
        return fc.double({ min: 0, max: 1_000_000, noNaN: true })
      case "boolean":
        return fc.boolean()
      default:
        return fc.constant("x")
    }
  }

  return (schema) => {
    const cached = cache.get(schema)
    if (cached !== undefined) return cached
    const arbitrary = generate(schema, 0)
    cache.set(schema, arbitrary)
    return arbitrary
  }
}
