import { Effect, Encoding } from "effect"

/** SHA-256 of the UTF-8 bytes of `text`, as lowercase hex (WebCrypto, in Node 20+, browsers and workers). */
export const hex = (text: string): Effect.Effect<string> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).pipe(
    Effect.map((digest) => Encoding.encodeHex(new Uint8Array(digest)))
  )

/**
 * JSON text of `value` with every object's keys sorted and no whitespace: two bodies that differ only in key order
 * or formatting give the same text. `undefined` members are left out, as `JSON.stringify` does.
 */
export const canonicalJson = (value: unknown): string => JSON.stringify(sorted(value)) ?? ""

const sorted = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sorted)
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return Object.fromEntries(entries.map(([key, member]) => [key, sorted(member)]))
  }
  return value
}
