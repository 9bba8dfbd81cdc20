import { createPublicKey, type KeyObject, verify } from "node:crypto"
import type { Prepared } from "./retries.js"

/** One stamp as bare verification takes it: the payload's bytes, the DER signature, the signer's key. */
interface Decoded {
  readonly payload: Buffer
  readonly der: Buffer
  readonly key: KeyObject
}

/** What a baseline run measured: verifications per second on this process's one thread. */
export interface BaselineRun {
  readonly verifies: number
  readonly seconds: number
  readonly perSecond: number
}

// An uncompressed SEC1 key (04 ‖ x ‖ y, hex) as a KeyObject, through its JWK coordinates.
const keyOf = (uncompressedHex: string): KeyObject => {
  const bytes = Buffer.from(uncompressedHex, "hex")
  if (bytes.length !== 65 || bytes[0] !== 4) throw new Error("expected an uncompressed P-256 public key")
  return createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: bytes.subarray(1, 33).toString("base64url"),
      y: bytes.subarray(33).toString("base64url")
    },
    format: "jwk"
  })
}

/**
 * The stamps of `prepared` decoded once, before any timing, with Node's own codecs (base64url, JSON, hex): the
 * baseline times `crypto.verify` alone. One `KeyObject` per wallet, as a server that caches keys would hold them.
 */
export const decodeStamps = (prepared: ReadonlyArray<Prepared>): ReadonlyArray<Decoded> => {
  const keys = new Map<string, KeyObject>()
  return prepared.map((retry) => {
    const stamp = JSON.parse(Buffer.from(retry.stamp, "base64url").toString("utf8")) as { signature?: unknown }
    if (typeof stamp.signature !== "string") throw new Error("a stamp without a signature")
    const publicKey = retry.throwaway.wallet.publicKey
    let key = keys.get(publicKey)
    if (key === undefined) {
      key = keyOf(publicKey)
      keys.set(publicKey, key)
    }
    return { payload: Buffer.from(retry.payloadToSign, "utf8"), der: Buffer.from(stamp.signature, "hex"), key }
  })
}

/**
 * Bare `node:crypto` ECDSA P-256 verification (SHA-256, DER, high-S accepted as OpenSSL does) of the decoded stamps
 * in turn, synchronously on this thread, for `seconds`. Every stamp must verify. The clock is read every 64
 * verifications (each costs tens of microseconds, so reading it adds nothing measurable).
 */
export const runBaseline = (stamps: ReadonlyArray<Decoded>, seconds: number): BaselineRun => {
  if (stamps.length === 0) throw new Error("no stamps to verify")
  const started = performance.now()
  const deadline = started + seconds * 1000
  let verifies = 0
  let now = started
  while (now < deadline) {
    for (let batch = 0; batch < 64; batch++) {
      const stamp = stamps[verifies % stamps.length] as Decoded
      if (!verify("sha256", stamp.payload, { key: stamp.key, dsaEncoding: "der" }, stamp.der)) {
        throw new Error("a stamp of the run does not verify")
      }
      verifies += 1
    }
    now = performance.now()
  }
  const elapsed = (now - started) / 1000
  return { verifies, seconds: elapsed, perSecond: verifies / elapsed }
}
