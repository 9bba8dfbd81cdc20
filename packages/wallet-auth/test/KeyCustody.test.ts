import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted } from "effect"
import { Ids } from "@payrail/core"
import { KeyCustody } from "../src/index.js"

const MASTER_KEY = Redacted.make("11".repeat(32))
const NEXT_MASTER_KEY = Redacted.make("22".repeat(32))
const secret = new TextEncoder().encode("legal winner thank year wave sausage worth useful legal winner thank yellow")

const custodyWith = (options: KeyCustody.Options) => KeyCustody.layer(options).pipe(Layer.provide(Ids.layer))

const sealWith = (options: KeyCustody.Options, purpose: KeyCustody.Purpose = "wallet-secret") =>
  Effect.flatMap(KeyCustody.KeyCustody, (custody) => custody.seal(purpose, secret)).pipe(
    Effect.provide(custodyWith(options))
  )

const openWith = (options: KeyCustody.Options, sealed: string, purpose: KeyCustody.Purpose = "wallet-secret") =>
  Effect.flatMap(KeyCustody.KeyCustody, (custody) => custody.open(purpose, sealed)).pipe(
    Effect.provide(custodyWith(options))
  )

describe("KeyCustody", () => {
  it.effect("seals to v1.<keyId>.<wrappedKey>.<ciphertext> and opens it back, a fresh data key each time", () =>
    Effect.gen(function* () {
      const first = yield* sealWith({ masterKey: MASTER_KEY })
      const second = yield* sealWith({ masterKey: MASTER_KEY })
      expect(first).toMatch(/^v1\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{80}\.[A-Za-z0-9_-]+$/)
      const [, keyId, wrapped] = first.split(".")
      expect(second.split(".")[1]).toBe(keyId)
      expect(second.split(".")[2]).not.toBe(wrapped)
      expect(Buffer.from(yield* openWith({ masterKey: MASTER_KEY }, first))).toEqual(Buffer.from(secret))
      expect(first).not.toContain(Buffer.from(secret).toString("base64url").slice(0, 16))
    })
  )

  it.effect("opens secrets sealed under a retired master key after rotation, and seals under the new one", () =>
    Effect.gen(function* () {
      const old = yield* sealWith({ masterKey: MASTER_KEY })
      const rotated = { masterKey: NEXT_MASTER_KEY, retiredMasterKeys: [MASTER_KEY] }
      expect(Buffer.from(yield* openWith(rotated, old))).toEqual(Buffer.from(secret))
      const fresh = yield* sealWith(rotated)
      expect(fresh.split(".")[1]).not.toBe(old.split(".")[1])
      const error = yield* Effect.flip(openWith({ masterKey: MASTER_KEY }, fresh))
      expect(error.reason).toMatch(/master key/)
    })
  )

  it.effect("refuses another master key, another purpose, swapped parts and altered bytes", () =>
    Effect.gen(function* () {
      const sealed = yield* sealWith({ masterKey: MASTER_KEY })
      const other = yield* sealWith({ masterKey: MASTER_KEY })
      const [version, keyId, wrapped, ciphertext] = sealed.split(".") as [string, string, string, string]
      const flipped = (part: string) => `${part.slice(0, 5)}${part[5] === "A" ? "B" : "A"}${part.slice(6)}`
      const refused = [
        openWith({ masterKey: NEXT_MASTER_KEY }, sealed),
        openWith({ masterKey: MASTER_KEY }, sealed, "otp-target-key"),
        openWith({ masterKey: MASTER_KEY }, [version, keyId, other.split(".")[2], ciphertext].join(".")),
        openWith({ masterKey: MASTER_KEY }, [version, keyId, flipped(wrapped), ciphertext].join(".")),
        openWith({ masterKey: MASTER_KEY }, [version, keyId, wrapped, flipped(ciphertext)].join(".")),
        openWith({ masterKey: MASTER_KEY }, ["v2", keyId, wrapped, ciphertext].join(".")),
        openWith({ masterKey: MASTER_KEY }, "not sealed")
      ]
      for (const attempt of refused) {
        expect((yield* Effect.flip(attempt))._tag).toBe("SealedSecretUnreadable")
      }
    })
  )

  it.effect("refuses to start with a master key that is not 32 bytes of hex", () =>
    Effect.gen(function* () {
      for (const masterKey of ["11".repeat(31), "zz".repeat(32), ""]) {
        const exit = yield* Effect.exit(sealWith({ masterKey: Redacted.make(masterKey) }))
        expect(Exit.isFailure(exit) && !Exit.isInterrupted(exit)).toBe(true)
      }
    })
  )
})
