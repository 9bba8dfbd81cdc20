import { sha256 } from "./sha256.js"

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const VALUES: ReadonlyMap<string, number> = new Map([...ALPHABET].map((char, index) => [char, index]))

/**
 * The bytes of a Bitcoin-alphabet base58 string (each leading `1` is a leading zero byte), or `undefined` when a
 * character is outside the alphabet or the text is empty.
 */
export const decode = (text: string): Uint8Array | undefined => {
  if (text.length === 0) return undefined
  const bytes: Array<number> = []
  for (const char of text) {
    let carry = VALUES.get(char)
    if (carry === undefined) return undefined
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58
      bytes[i] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  let zeros = 0
  while (zeros < text.length && text[zeros] === "1") zeros++
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()])
}

/**
 * The payload of a base58check string (bytes whose last four are the first four of a double SHA-256 of the rest),
 * or `undefined` when it is not base58 or the checksum does not match.
 */
export const decodeCheck = (text: string): Uint8Array | undefined => {
  const bytes = decode(text)
  if (bytes === undefined || bytes.length < 5) return undefined
  const payload = bytes.subarray(0, bytes.length - 4)
  const checksum = sha256(sha256(payload))
  for (let i = 0; i < 4; i++) if (checksum[i] !== bytes[payload.length + i]) return undefined
  return payload
}
