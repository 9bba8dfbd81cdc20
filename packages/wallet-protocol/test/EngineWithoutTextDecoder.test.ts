import path from "node:path"
import { fileURLToPath } from "node:url"
import vm from "node:vm"
import { build } from "esbuild"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import type * as WalletProtocol from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const entry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/index.ts")

/**
 * The package bundled for a browser and run in a fresh V8 context that has the ECMAScript built-ins and
 * `TextEncoder` but no `TextDecoder`, `Buffer`, `atob` or `crypto`: the globals of Hermes as shipped with React
 * Native 0.74 to 0.84. Every codec then takes its pure-JavaScript path.
 */
const loadWithoutTextDecoder = async (): Promise<typeof WalletProtocol> => {
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "WalletProtocol",
    write: false,
    logLevel: "silent"
  })
  const context = vm.createContext({ TextEncoder })
  vm.runInContext(bundled.outputFiles[0]!.text, context)
  expect(vm.runInContext("typeof TextDecoder", context)).toBe("undefined")
  return context["WalletProtocol"] as typeof WalletProtocol
}

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
const decodeReference = (bytes: Uint8Array): string | undefined => {
  try {
    return fatal.decode(bytes)
  } catch {
    return undefined
  }
}

describe("on an engine without TextDecoder (Hermes before it gained one)", () => {
  let engine: typeof WalletProtocol
  beforeAll(async () => {
    engine = await loadWithoutTextDecoder()
  }, 60_000)

  it("fromUtf8 agrees with a fatal TextDecoder on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        const decoded = engine.Encoding.fromUtf8(bytes)
        expect(decoded.ok ? decoded.value : undefined).toBe(decodeReference(bytes))
      }),
      { numRuns: 2000 }
    )
  })

  it("fromUtf8 reads valid text back, keeps a byte order mark and refuses malformed forms", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const decoded = engine.Encoding.fromUtf8(new TextEncoder().encode(text))
        expect(decoded.ok ? decoded.value : undefined).toBe(text)
      })
    )
    const withBom = engine.Encoding.fromUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))
    expect(withBom.ok ? withBom.value : withBom.error.code).toBe("\ufeffa")
    for (const bytes of [
      [0xc0, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82]
    ]) {
      const decoded = engine.Encoding.fromUtf8(Uint8Array.from(bytes))
      expect(decoded.ok ? "accepted" : decoded.error.code).toBe("BadUtf8")
    }
  })

  it("hex, base64url and base58check give Node's bytes and text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), (bytes) => {
        const { Base58Check, Encoding } = engine
        expect(Encoding.toHex(bytes)).toBe(Buffer.from(bytes).toString("hex"))
        expect(Encoding.toBase64url(bytes)).toBe(Buffer.from(bytes).toString("base64url"))
        const fromHex = Encoding.fromHex(Buffer.from(bytes).toString("hex").toUpperCase())
        const fromBase64url = Encoding.fromBase64url(Buffer.from(bytes).toString("base64url"))
        const fromBase58check = Base58Check.decode(Base58Check.encode(bytes))
        for (const decoded of [fromHex, fromBase64url, fromBase58check]) {
          expect(decoded.ok ? Array.from(decoded.value) : decoded.error.code).toEqual(Array.from(bytes))
        }
      })
    )
  })

  it("verifies every stamp vector, padded or not, and refuses a header with wrong padding", () => {
    for (const vector of vectors.stamps) {
      const publicKey = engine.P256.parsePublicKey(vector.publicKeyHex)
      if (!publicKey.ok) throw publicKey.error
      const padded = vector.stampHeaderValue + "=".repeat((4 - (vector.stampHeaderValue.length % 4)) % 4)
      for (const stamp of [vector.stampHeaderValue, padded]) {
        const verified = engine.Stamp.verify({ stamp, payload: vector.payload, publicKey: publicKey.value })
        expect([vector.description, verified.ok]).toEqual([vector.description, true])
      }
      // Three `=` are wrong after any length.
      const wrongPadding = engine.Stamp.decode(`${vector.stampHeaderValue}===`)
      expect(wrongPadding.ok ? "accepted" : wrongPadding.error.code).toBe("BadBase64url")
    }
  })
})
