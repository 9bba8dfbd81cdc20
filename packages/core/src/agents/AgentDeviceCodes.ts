import { Effect, Option } from "effect"
import { Ids, Sha256 } from "../kernel/index.js"
import { alphabet, prefix } from "./AgentDeviceCode.js"

/**
 * Device codes as people type them: generated from `Ids.randomBytes` in the `AgentDeviceCode` alphabet, read back
 * forgivingly, and stored as a hash of their normalised form.
 */

const groups = 3
const groupLength = 4
const symbols = groups * groupLength

/** The longest text considered a code at all; longer input is never hashed. */
const maxTypedLength = 64

/** A new code, `PAYRAIL-AGENT-XXXX-XXXX-XXXX` (60 random bits: each of 12 bytes gives one of 32 symbols). */
export const generate: Effect.Effect<string, never, Ids.Ids> = Effect.gen(function* () {
  const ids = yield* Ids.Ids
  const bytes = yield* ids.randomBytes(symbols)
  const text = Array.from(bytes, (byte) => alphabet[byte & 31]!).join("")
  const parts = Array.from({ length: groups }, (_, index) => text.slice(index * groupLength, (index + 1) * groupLength))
  return `${prefix}${parts.join("-")}`
})

const confusable: Readonly<Record<string, string>> = { O: "0", I: "1", L: "1" }

const codeShape = new RegExp(`^[${alphabet}]{${groupLength}}(-[${alphabet}]{${groupLength}}){${groups - 1}}$`)

/**
 * The canonical form of a typed code: trimmed, upper case, and in the symbols after the prefix `O` read as `0` and
 * `I`/`L` as `1`. None when it cannot be a code (wrong prefix, length or symbols): such input is simply unknown.
 */
export const normalise = (typed: string): Option.Option<string> => {
  const text = typed.trim().toUpperCase()
  if (text.length > maxTypedLength || !text.startsWith(prefix)) return Option.none()
  const body = Array.from(text.slice(prefix.length), (symbol) => confusable[symbol] ?? symbol).join("")
  return codeShape.test(body) ? Option.some(`${prefix}${body}`) : Option.none()
}

/** The stored form of a canonical code (`normalise` it first): SHA-256 of its text, lowercase hex. */
export const hash = (canonical: string): Effect.Effect<string> => Sha256.hex(canonical)
