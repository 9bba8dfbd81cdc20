import { P256 } from "@payrail/wallet-protocol"
import { makeBoundedCache } from "./boundedCache.js"

/** A registered public key parsed once, with whatever native handle a verifier needs for it. */
export interface CachedKey<Native> {
  readonly publicKey: P256.PublicKey
  readonly native: Native
}

/**
 * A bounded least-recently-used cache from registered key text (as stored) to its parsed point and native handle.
 * Parsing a compressed key costs a modular square root and importing it into the platform's crypto costs more than
 * a verification, so both happen once per key; `undefined` marks text that is not a P-256 key.
 */
export const makeKeyCache = <Native>(capacity: number, load: (publicKey: P256.PublicKey) => Native) =>
  makeBoundedCache(capacity, (keyText: string): CachedKey<Native> | undefined => {
    const parsed = P256.parsePublicKey(keyText)
    return parsed.ok ? { publicKey: parsed.value, native: load(parsed.value) } : undefined
  })
