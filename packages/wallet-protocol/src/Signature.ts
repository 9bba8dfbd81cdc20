import { p256 } from "@noble/curves/nist.js"
import { fromHex, toHex } from "./Encoding.js"
import type { PublicKey } from "./P256.js"
import { err, ok, type Result } from "./Result.js"

const N = p256.Point.CURVE().n
const HALF_N = N >> 1n

/** An ECDSA P-256 signature as its two integers. */
export interface EcdsaSignature {
  readonly r: bigint
  readonly s: bigint
}

/** A DER signature that {@link decodeDer} accepted, with its integers. */
export interface DerSignature extends EcdsaSignature {
  readonly der: Uint8Array
}

const N_BYTES = Uint8Array.from({ length: 32 }, (_, i) => Number((N >> BigInt(8 * (31 - i))) & 255n))

const toBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${toHex(bytes)}`)

/** True when the big-endian magnitude `bytes` (no leading zero) is at least the group order n. */
const atLeastOrder = (bytes: Uint8Array): boolean => {
  if (bytes.length !== 32) return bytes.length > 32
  for (let i = 0; i < 32; i++) {
    const a = bytes[i] as number
    const b = N_BYTES[i] as number
    if (a !== b) return a > b
  }
  return true
}

/**
 * A decoded signature that computes its integers only when asked: servers that hand the DER bytes to a native
 * verifier never pay for BigInt arithmetic on the hot path.
 */
class LazyDerSignature implements DerSignature {
  #r: bigint | undefined
  #s: bigint | undefined
  constructor(
    readonly der: Uint8Array,
    private readonly rBytes: Uint8Array,
    private readonly sBytes: Uint8Array
  ) {}
  get r(): bigint {
    return (this.#r ??= toBigInt(this.rBytes))
  }
  get s(): bigint {
    return (this.#s ??= toBigInt(this.sBytes))
  }
}

const readInteger = (
  der: Uint8Array,
  at: number,
  end: number,
  field: string | undefined
): Result<{ magnitude: Uint8Array; next: number }> => {
  if (at + 2 > end) return err("TruncatedDer", "INTEGER header missing", field)
  if (der[at] !== 0x02) return err("BadDer", "expected INTEGER", field)
  const length = der[at + 1] as number
  if (length === 0 || length > 33) return err("BadDer", "INTEGER length out of range", field)
  const start = at + 2
  if (start + length > end) return err("TruncatedDer", "INTEGER runs past the end", field)
  const first = der[start] as number
  if ((first & 0x80) !== 0) return err("BadDer", "negative INTEGER", field)
  if (first === 0 && length > 1 && ((der[start + 1] as number) & 0x80) === 0) {
    return err("BadDer", "INTEGER has an unnecessary leading zero", field)
  }
  const magnitude = der.subarray(first === 0 ? start + 1 : start, start + length)
  if (magnitude.length === 0 || atLeastOrder(magnitude)) return err("BadDer", "INTEGER out of range for P-256", field)
  return ok({ magnitude, next: start + length })
}

/**
 * Decodes an ASN.1 DER `SEQUENCE{INTEGER r, INTEGER s}` strictly: short-form lengths only (P-256 never needs long
 * form), minimal non-negative integers in `[1, n-1]`, nothing after the sequence. Fails with `TruncatedDer` when the
 * bytes end early and `BadDer` for any other defect. High-S values are accepted.
 */
export const decodeDer = (der: Uint8Array, field?: string): Result<DerSignature> => {
  if (der.length < 2) return err("TruncatedDer", "shorter than a SEQUENCE header", field)
  if (der[0] !== 0x30) return err("BadDer", "expected SEQUENCE", field)
  const length = der[1] as number
  if (length >= 0x80) return err("BadDer", "long-form length", field)
  const end = 2 + length
  if (end > der.length) return err("TruncatedDer", "SEQUENCE runs past the end", field)
  if (end < der.length) return err("BadDer", "bytes after the SEQUENCE", field)
  const r = readInteger(der, 2, end, field)
  if (!r.ok) return r
  const s = readInteger(der, r.value.next, end, field)
  if (!s.ok) return s
  if (s.value.next !== end) return err("BadDer", "bytes after INTEGER s inside the SEQUENCE", field)
  return ok(new LazyDerSignature(der, r.value.magnitude, s.value.magnitude))
}

/** Hex-decodes then {@link decodeDer}-decodes a signature. */
export const decodeDerHex = (hex: string, field?: string): Result<DerSignature> => {
  const bytes = fromHex(hex, field)
  return bytes.ok ? decodeDer(bytes.value, field) : bytes
}

const integerBytes = (value: bigint): Array<number> => {
  const bytes: Array<number> = []
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 255n))
  if (bytes.length === 0 || ((bytes[0] as number) & 0x80) !== 0) bytes.unshift(0)
  return bytes
}

/** Encodes `r` and `s` as canonical DER, the form {@link decodeDer} accepts. */
export const encodeDer = (signature: EcdsaSignature): Uint8Array => {
  const r = integerBytes(signature.r)
  const s = integerBytes(signature.s)
  return Uint8Array.from([0x30, 4 + r.length + s.length, 0x02, r.length, ...r, 0x02, s.length, ...s])
}

/** The 64-byte `r ‖ s` (IEEE P1363) form of a signature, as WebCrypto expects it. */
export const toCompact = (signature: EcdsaSignature): Uint8Array => {
  const out = new Uint8Array(64)
  for (let i = 31, r = signature.r, s = signature.s; i >= 0; i--, r >>= 8n, s >>= 8n) {
    out[i] = Number(r & 255n)
    out[32 + i] = Number(s & 255n)
  }
  return out
}

/** True when `s` is in the upper half of the group order. Such signatures are valid and must be accepted. */
export const isHighS = (signature: EcdsaSignature): boolean => signature.s > HALF_N

/**
 * Signs SHA-256(`message`) with ECDSA P-256 and returns DER bytes. The nonce is RFC 6979 deterministic and `s` is
 * not normalised, so the output is byte-identical to Turnkey's `purejs` stamper for the same key and message.
 */
export const sign = (message: Uint8Array, privateKey: Uint8Array): Uint8Array =>
  p256.sign(message, privateKey, { prehash: true, lowS: false, format: "der" })

/** {@link sign}, returned as lowercase hex. */
export const signHex = (message: Uint8Array, privateKey: Uint8Array): string => toHex(sign(message, privateKey))

/**
 * Verifies an ECDSA P-256 signature over SHA-256(`message`) in pure JavaScript, accepting high-S. Server code
 * should prefer the platform's native verifier (see `@payrail/wallet-auth`), which is much faster.
 */
export const verify = (signature: EcdsaSignature, message: Uint8Array, publicKey: PublicKey): boolean => {
  try {
    return p256.verify(toCompact(signature), message, publicKey.uncompressed, {
      prehash: true,
      lowS: false,
      format: "compact"
    })
  } catch {
    return false
  }
}
