import { Effect } from "effect"

/** RFC 6238 parameters of every Payrail TOTP factor: HMAC-SHA1, 6 digits, 30-second steps. */
export const digits = 6
export const stepSeconds = 30
/** Steps either side of now a code is accepted for, to absorb clock drift between the app and the server. */
export const driftSteps = 1

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** RFC 4648 base32 of `bytes`, without padding (what authenticator apps take). */
export const base32 = (bytes: Uint8Array): string => {
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return out
}

/** The bytes of base32 `text` (case and padding ignored); characters outside the alphabet are skipped. */
export const fromBase32 = (text: string): Uint8Array => {
  let bits = 0
  let value = 0
  const out: Array<number> = []
  for (const char of text.toUpperCase().replace(/=+$/, "")) {
    const index = alphabet.indexOf(char)
    if (index < 0) continue
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}

/** The RFC 4226 HOTP code of `secret` at `counter` (HMAC-SHA1 through WebCrypto, dynamic truncation). */
export const hotp = (secret: Uint8Array, counter: number): Effect.Effect<string> =>
  Effect.promise(async () => {
    const key = await globalThis.crypto.subtle.importKey(
      "raw",
      Uint8Array.from(secret),
      { name: "HMAC", hash: "SHA-1" },
      false,
      ["sign"]
    )
    const message = new Uint8Array(8)
    new DataView(message.buffer).setBigUint64(0, BigInt(counter))
    const mac = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, message))
    const offset = mac[mac.length - 1]! & 0x0f
    const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
    return String(binary % 10 ** digits).padStart(digits, "0")
  })

/** The TOTP code of `secret` at `epochMillis`. */
export const codeAt = (secret: Uint8Array, epochMillis: number): Effect.Effect<string> =>
  hotp(secret, Math.floor(epochMillis / 1000 / stepSeconds))

/** Whether `code` is the TOTP code of the base32 `secret` at `epochMillis`, one step of drift either side allowed. */
export const verify = (secretBase32: string, code: string, epochMillis: number): Effect.Effect<boolean> => {
  const secret = fromBase32(secretBase32)
  const counter = Math.floor(epochMillis / 1000 / stepSeconds)
  return Effect.map(
    Effect.forEach(
      Array.from({ length: 2 * driftSteps + 1 }, (_, i) => counter - driftSteps + i),
      (at) => hotp(secret, at)
    ),
    (codes) => codes.includes(code)
  )
}

/** The `otpauth://` provisioning URI an authenticator app scans. */
export const provisioningUri = (issuer: string, account: string, secretBase32: string): string =>
  `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?secret=${secretBase32}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${digits}&period=${stepSeconds}`
