import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bech32 } from "@scure/base"

/**
 * BOLT11 invoices the sandbox hands out for real-time funding in BTC: well-formed and signed (secp256k1, recoverable
 * signature over the SHA-256 of the human-readable part and the data), so real decoders accept them and recover the
 * sandbox node's public key. Nothing pays them: `POST /sandbox/send` stands in for the payer.
 */

/** What an invoice asks for. */
export interface InvoiceRequest {
  readonly amountSats: bigint
  readonly paymentHash: Uint8Array
  readonly paymentSecret: Uint8Array
  readonly description: string
  readonly timestampSeconds: number
  readonly expirySeconds: number
  /** The signing node's 32-byte secret key. */
  readonly nodeSecretKey: Uint8Array
}

const encoder = new TextEncoder()

// An unsigned integer as big-endian 5-bit words, at least one word (BOLT11's `x` and `c` fields are minimal).
const intWords = (value: number): Array<number> => {
  const words: Array<number> = []
  let rest = value
  do {
    words.unshift(rest % 32)
    rest = Math.floor(rest / 32)
  } while (rest > 0)
  return words
}

// The timestamp: exactly 35 bits.
const timestampWords = (seconds: number): Array<number> => {
  const words = intWords(seconds)
  return [...Array.from({ length: 7 - words.length }, () => 0), ...words]
}

const tagged = (type: number, data: ReadonlyArray<number>): Array<number> => [
  type,
  Math.floor(data.length / 32),
  data.length % 32,
  ...data
]

// Bech32 field letters: p=1, s=16, d=13, x=6, c=24.
const fields = { paymentHash: 1, paymentSecret: 16, description: 13, expiry: 6, minFinalCltv: 24 } as const

/**
 * 5-bit words as bytes, the last byte zero-padded (what BOLT11 signs): zero words are appended up to a whole number of
 * bytes for the codec, and the bytes beyond the words' own bits dropped.
 */
export const wordsToPaddedBytes = (words: ReadonlyArray<number>): Uint8Array => {
  const padded = [...words, ...Array.from({ length: (8 - (words.length % 8)) % 8 }, () => 0)]
  return bech32.fromWords(padded).slice(0, Math.ceil((words.length * 5) / 8))
}

/** The sandbox node's secret key: fixed, so invoices of one quote are the same every time. */
export const sandboxNodeSecretKey: Uint8Array = sha256(encoder.encode("payrail sandbox lightning node"))

/** A mainnet (`lnbc`) invoice for `amountSats`, expressed in nano-bitcoin (10 per satoshi). */
export const encode = (request: InvoiceRequest): string => {
  if (request.amountSats <= 0n) throw new RangeError("an invoice amount must be positive")
  const hrp = `lnbc${(request.amountSats * 10n).toString()}n`
  const data = [
    ...timestampWords(request.timestampSeconds),
    ...tagged(fields.paymentHash, bech32.toWords(request.paymentHash)),
    ...tagged(fields.paymentSecret, bech32.toWords(request.paymentSecret)),
    ...tagged(fields.description, bech32.toWords(encoder.encode(request.description))),
    ...tagged(fields.expiry, intWords(request.expirySeconds)),
    ...tagged(fields.minFinalCltv, intWords(18))
  ]
  // The signed message: the human-readable part's bytes, then the data words as bytes (zero-padded).
  const signed = new Uint8Array([...encoder.encode(hrp), ...wordsToPaddedBytes(data)])
  const recovered = secp256k1.sign(sha256(signed), request.nodeSecretKey, { prehash: false, format: "recovered" })
  // noble answers [recovery id, r, s]; BOLT11 carries r, s, then the recovery id.
  const signature = new Uint8Array([...recovered.slice(1), recovered[0]!])
  return bech32.encode(hrp, [...data, ...bech32.toWords(signature)], false)
}
