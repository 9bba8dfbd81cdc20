import { sha256 } from "@noble/hashes/sha2.js"
import { err, ok, type Result } from "./Result.js"

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i

const checksumOf = (payload: Uint8Array): Uint8Array => sha256(sha256(payload)).subarray(0, 4)

/** Encodes bytes in the Bitcoin base58 alphabet; each leading zero byte becomes a leading `1`. */
export const encodeBase58 = (bytes: Uint8Array): string => {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  let n = 0n
  for (let i = zeros; i < bytes.length; i++) n = (n << 8n) | BigInt(bytes[i] as number)
  let out = ""
  while (n > 0n) {
    out = ALPHABET.charAt(Number(n % 58n)) + out
    n /= 58n
  }
  return "1".repeat(zeros) + out
}

/** Decodes Bitcoin-alphabet base58 text; fails with `BadBase58` on any character outside the alphabet. */
export const decodeBase58 = (text: string, field?: string): Result<Uint8Array> => {
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++
  let n = 0n
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const digit = code < 128 ? (VALUE[code] as number) : -1
    if (digit < 0) return err("BadBase58", `character outside the base58 alphabet at position ${i}`, field)
    n = n * 58n + BigInt(digit)
  }
  const body: Array<number> = []
  while (n > 0n) {
    body.push(Number(n & 255n))
    n >>= 8n
  }
  const out = new Uint8Array(zeros + body.length)
  for (let i = 0; i < body.length; i++) out[out.length - 1 - i] = body[i] as number
  return ok(out)
}

/**
 * Encodes `payload` as base58check: base58 of `payload ‖ SHA-256(SHA-256(payload))[0..4]`, with no version byte
 * (the layout of Turnkey's `bs58check`).
 */
export const encode = (payload: Uint8Array): string => {
  const full = new Uint8Array(payload.length + 4)
  full.set(payload)
  full.set(checksumOf(payload), payload.length)
  return encodeBase58(full)
}

/**
 * Decodes base58check text and returns the payload without its checksum. Fails with `BadBase58` on a foreign
 * character and with `BadChecksum` when the text is too short to hold a checksum or the checksum does not match.
 */
export const decode = (text: string, field?: string): Result<Uint8Array> => {
  const decoded = decodeBase58(text, field)
  if (!decoded.ok) return decoded
  const full = decoded.value
  if (full.length < 4) return err("BadChecksum", "too short to carry a checksum", field)
  const payload = full.subarray(0, full.length - 4)
  const expected = checksumOf(payload)
  for (let i = 0; i < 4; i++) {
    if (full[payload.length + i] !== expected[i]) return err("BadChecksum", "checksum does not match", field)
  }
  return ok(payload)
}
