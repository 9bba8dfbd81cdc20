import { P256 } from "@payrail/wallet-protocol"
import { describe, expect, it } from "vitest"
import { makeKeyCache } from "../../src/internal/keyCache.js"

describe("makeKeyCache", () => {
  const keys = Array.from({ length: 3 }, () => P256.generateKeyPair().publicKey)

  it("imports each key once while it stays cached, under either encoding it was registered with", () => {
    const loaded: Array<string> = []
    const keyFor = makeKeyCache(10, (publicKey) => loaded.push(publicKey.compressedHex))
    for (let i = 0; i < 3; i++) {
      expect(keyFor(keys[0]!.compressedHex)?.publicKey.uncompressedHex).toBe(keys[0]!.uncompressedHex)
      keyFor(keys[1]!.uncompressedHex)
    }
    expect(loaded).toEqual([keys[0]!.compressedHex, keys[1]!.compressedHex])
  })

  it("evicts the least recently used key beyond its capacity", () => {
    const loaded: Array<string> = []
    const keyFor = makeKeyCache(2, (publicKey) => loaded.push(publicKey.compressedHex))
    keyFor(keys[0]!.compressedHex)
    keyFor(keys[1]!.compressedHex)
    keyFor(keys[0]!.compressedHex)
    keyFor(keys[2]!.compressedHex)
    keyFor(keys[0]!.compressedHex)
    keyFor(keys[1]!.compressedHex)
    expect(loaded).toEqual([keys[0], keys[1], keys[2], keys[1]].map((key) => key!.compressedHex))
  })

  it("remembers text that is not a P-256 key as undefined without loading anything", () => {
    let loads = 0
    const keyFor = makeKeyCache(10, () => loads++)
    expect(keyFor("02abcd")).toBeUndefined()
    expect(keyFor("02abcd")).toBeUndefined()
    expect(loads).toBe(0)
  })
})
