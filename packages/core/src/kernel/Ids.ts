import { Context, Effect, Encoding, Layer, Ref } from "effect"

/**
 * The single source of identifiers and secret material. Domain code never calls `crypto.randomUUID` or
 * `Math.random` itself, so tests can swap in `layerDeterministic` and get repeatable ids.
 */
export class Ids extends Context.Tag("@payrail/core/Ids")<
  Ids,
  {
    /** A fresh lowercase RFC 4122 version 4 uuid. */
    readonly uuid: Effect.Effect<string>
    /** `length` bytes from a cryptographically secure source (deterministic under `layerDeterministic`). */
    readonly randomBytes: (length: number) => Effect.Effect<Uint8Array>
  }
>() {}

/** Ids from the platform's cryptographically secure generator (WebCrypto, present in Node 20+ and browsers). */
export const layer: Layer.Layer<Ids> = Layer.succeed(Ids, {
  uuid: Effect.sync(() => globalThis.crypto.randomUUID()),
  randomBytes: (length) => Effect.sync(() => globalThis.crypto.getRandomValues(new Uint8Array(length)))
})

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0")

/**
 * Repeatable ids for tests: the n-th uuid is `00000000-0000-4000-8000-<n as 12 hex digits>` and random bytes
 * count up from a counter. Never use it outside tests: the secrets it produces are predictable.
 */
export const layerDeterministic: Layer.Layer<Ids> = Layer.effect(
  Ids,
  Effect.gen(function* () {
    const counter = yield* Ref.make(0)
    const next = Ref.updateAndGet(counter, (n) => n + 1)
    return {
      uuid: Effect.map(next, (n) => `00000000-0000-4000-8000-${hex(n, 12)}`),
      randomBytes: (length) =>
        Effect.map(next, (n) => Uint8Array.from({ length }, (_, index) => (n * 31 + index) & 0xff))
    }
  })
)

/** Encodes bytes as unpadded base64url, the form used for client ids, secrets and cursors. */
export const base64url: (bytes: Uint8Array) => string = Encoding.encodeBase64Url
