import fc from "fast-check"

/*
 * The hostile values the fuzz sends. Each is an arbitrary, so a run is a pure function of its seed.
 */

/** Characters that break naive text handling: lone surrogates, NUL, controls, bidi marks, astral code points. */
const nasties = [
  "\ud800",
  "\udfff",
  "\u0000",
  "\u0007",
  "\u001b[31m",
  "\u202e",
  "\u200f",
  "\u2066",
  "\ufeff",
  "\uffff",
  "\ud83d\ude00",
  "\u0301",
  "\r\n",
  "'",
  '"',
  "\\",
  "%00",
  "../",
  "${}",
  "<script>"
] as const

/** A string of `length` code units made of `unit` repeated (a 64 KB name, an 8 KB id). */
const repeated = (units: ReadonlyArray<string>, lengths: { min: number; max: number }) =>
  fc
    .tuple(fc.constantFrom(...units), fc.integer(lengths))
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length))

/** A short marker every echo check can find: 8+ characters, unlikely to appear in any response by chance. */
export const marker = fc.stringMatching(/^[a-z]{4}[0-9]{4}[a-z]{2}$/).map((text) => `zq${text}`)

/** Strings built to break validation and storage: unicode edge cases, huge and empty ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", " ", "   ", "\t\n", ...nasties),
  fc
    .tuple(marker, fc.constantFrom(...nasties), fc.boolean())
    .map(([mark, bad, after]) => (after ? `${mark}${bad}` : `${bad}${mark}`)),
  fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
  repeated(["a", "é", "\u202e", "\ud83d\ude00", " "], { min: 256, max: 4096 }),
  repeated(["x", "\u0661", "\ud800"], { min: 60_000, max: 65_536 })
)

/** Numbers at and past every boundary a JSON number, a JS number or a database integer has. */
export const boundaryNumber: fc.Arbitrary<number> = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  0.5,
  -0.000001,
  1e-7,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  1e21,
  1e300,
  Number.MAX_VALUE,
  Number.MIN_VALUE
)

/** Numbers as JSON text, including forms `JSON.stringify` never writes (`1e309`, `-0.0e0`, `1E2`). */
export const boundaryNumberText: fc.Arbitrary<string> = fc.oneof(
  boundaryNumber.map(String),
  fc.constantFrom(
    "1e309",
    "-1e309",
    "1E2",
    "1e2",
    "-0.0e0",
    "100000000000.0",
    "9007199254740993",
    "1" + "0".repeat(400)
  )
)

/** Numbers the way a query string carries them, wrong: hex, exponents, signs, blanks, huge. */
export const badNumberQuery: fc.Arbitrary<string> = fc.constantFrom(
  "0",
  "-1",
  "101",
  "1000",
  "1e2",
  "1E1",
  "0x10",
  "0o7",
  "0b1",
  "010",
  "1.5",
  "1.0",
  " 5",
  "5 ",
  "+5",
  "",
  "NaN",
  "Infinity",
  "9007199254740993",
  "1e309",
  "٣",
  "5\u0000",
  "99999999999999999999999999"
)

/** Any JSON value of any type, for the "wrong type" mutations. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { "": "" }),
  // Objects whose keys shadow Object.prototype's conversions: `String()` of one throws.
  fc.constantFrom<unknown>(
    JSON.parse('{"toString":1}'),
    JSON.parse('{"valueOf":"x","toString":null}'),
    JSON.parse('{"__proto__":{"x":1}}'),
    JSON.parse('{"constructor":{"prototype":{}}}')
  ),
  boundaryNumber,
  hostileString,
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileString, { maxKeys: 3 })
)

const uuid = fc.uuid({ version: 4 })

/** Ids that are not ids of `resourceType`: other types, other shapes, wrong case, NUL, 8 KB. */
export const badId = (resourceType: string, otherTypes: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc
      .tuple(fc.constantFrom(...otherTypes, "Platform", "Webhook", "Request", resourceType.toLowerCase()), uuid)
      .map(([type, id]) => `${type}:${id}`),
    uuid.map((id) => `${resourceType}:${id.toUpperCase()}`),
    uuid.map((id) => `${resourceType}:${id}`.slice(0, -1)),
    uuid.map((id) => `${resourceType}:${id}x`),
    uuid.map((id) => `${resourceType}:${id}\u0000`),
    uuid.map((id) => `${resourceType}:${id.replaceAll("-", "")}`),
    uuid.map((id) => `${resourceType}_${id}`),
    uuid,
    fc.stringMatching(/^[A-Za-z0-9]{14,24}$/).map((id) => `cus_${id}`),
    fc.stringMatching(/^[A-Za-z0-9]{16}$/).map((id) => `acct_${id}`),
    fc.constantFrom("0", "-1", "null", "undefined", "%00", "\u0000", "..", "%2e%2e"),
    repeated(["A", "\u0000", "é"], { min: 8192, max: 8192 }),
    hostileString.filter((text) => text.length < 1000)
  )

/** An id of the right shape that no resource of the caller's platform has (another platform's, or none). */
export const unknownId = (resourceType: string): fc.Arbitrary<string> => uuid.map((id) => `${resourceType}:${id}`)

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")
const base64urlOf = (text: string) => Buffer.from(text, "utf8").toString("base64url")

/** Cursors a client could forge: random base64url, base64url of broken JSON, of JSON with wrong fields. */
export const forgedCursor: fc.Arbitrary<string> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map(base64url),
  fc.constantFrom("", "=", "====", "!!!", "a", "%", "\u0000", "eyJ"),
  fc.constantFrom("[", "[1,", "{}", "null", "[]", '"x"', "[1,2,3]", "\u0000").map(base64urlOf),
  fc
    .tuple(
      fc.constantFrom(
        "0000-01-01T00:00:00Z",
        "-000001-01-01T00:00:00Z",
        "+012345-01-01T00:00:00Z",
        "10000-01-01T00:00:00.000Z",
        "2020-13-45T99:99:99Z",
        "1970-01-01T00:00:00Z",
        "2025-10-13T00:00:00.000Z",
        "0001-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z",
        "12345",
        ""
      ),
      fc.oneof(
        fc.constantFrom("\u0000", "\ud800", "", "Customer:\u0000", "x".repeat(300)),
        uuid.map((id) => `Customer:${id}`)
      )
    )
    .map(([time, id]) => base64urlOf(JSON.stringify([time, id]))),
  fc.tuple(wrongType, wrongType).map(([a, b]) => base64urlOf(JSON.stringify([a, b]) ?? "null")),
  repeated(["A"], { min: 8192, max: 8192 })
)

/** Timestamps for date filters, valid and not: PostgreSQL's range ends, year 0, negative years, nonsense. */
export const badTimestamp: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "0000-01-01T00:00:00Z",
    "-000001-01-01T00:00:00Z",
    "+012345-01-01T00:00:00Z",
    "+275760-09-13T00:00:00Z",
    "12345",
    "-1",
    "0",
    "now",
    "2025-02-30T00:00:00Z",
    "2025-10-13",
    "2025-10-13T25:00:00Z",
    "2025-10-13T00:00:00+99:00",
    "1e309"
  ),
  hostileString.filter((text) => text.length < 1000)
)

const latin1 = (text: string) => Buffer.from(text, "utf8").toString("latin1")

/** `Authorization` values that are not valid Basic credentials, or name a client that does not exist. */
export const badAuthorization: fc.Arbitrary<{ readonly header: string; readonly clientId?: string }> = fc.oneof(
  fc
    .constantFrom("", "Basic", "Basic ", "Basic !!!", "Basic ====", "Bearer abc", "basic", "Digest x")
    .map((header) => ({
      header
    })),
  marker.map((text) => ({ header: `Basic ${Buffer.from(text).toString("base64")}`, clientId: text })),
  fc.tuple(marker, marker).map(([id, secret]) => ({
    header: `Basic ${Buffer.from(`${id}\u0000:${secret}`).toString("base64")}`,
    clientId: id
  })),
  fc.tuple(marker, marker).map(([id, secret]) => ({
    header: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
    clientId: id
  })),
  fc
    .tuple(
      hostileString.filter((text) => text.length < 4000),
      marker
    )
    .map(([id, secret]) => ({
      header: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
      clientId: id
    })),
  repeated(["A"], { min: 8000, max: 12_000 }).map((text) => ({ header: `Basic ${text}` })),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).map((text) => ({ header: `Basic ${latin1(text)}` }))
)
