import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

export interface StampVector {
  readonly description: string
  readonly privateKeyHex: string
  readonly publicKeyHex: string
  readonly payload: string
  readonly payloadUtf8Hex?: string
  readonly payloadSha256Hex?: string
  readonly stampHeaderValue: string
  readonly decodedStampJson: string
  readonly signatureRawRSHex?: string
  readonly signatureDerLength?: number
  readonly signatureIsHighS: boolean
  readonly deterministic: boolean
}

export interface HpkeIntermediates {
  readonly aad: string
  readonly kemContext: string
}

export interface OtpBundleVector {
  readonly description: string
  readonly signerPrivateKeyHex: string
  readonly signerPublicKeyHex: string
  readonly targetPrivateKeyHex: string
  readonly targetPublicKeyHex: string
  readonly targetBundle: string
  readonly targetBundleDataJson: string
  readonly tekPrivateKeyHex: string
  readonly tekPublicKeyHex: string
  readonly otpCode: string
  readonly ephemeralPrivateKeyHex: string | null
  readonly encryptedOtpBundle: string
  readonly expectedPlaintext: string
  readonly hpkeIntermediates?: HpkeIntermediates
}

export interface CredentialBundleVector {
  readonly description: string
  readonly recipientPrivateKeyHex: string
  readonly recipientPublicKeyHex: string
  readonly ephemeralPrivateKeyHex: string | null
  readonly bundle: string
  readonly expectedSessionPrivateKeyHex: string
  readonly expectedSessionPublicKeyCompressedHex: string
  readonly decoded: {
    readonly payloadHex: string
    readonly compressedEncappedPublicHex: string
    readonly ciphertextWithTagHex: string
  }
  readonly hpkeIntermediates?: HpkeIntermediates
}

export interface SignedBundleVector {
  readonly description: string
  readonly bundle: string
  readonly decodedData: Readonly<Record<string, string>>
  readonly signatureIsHighS: boolean
}

export interface Vectors {
  readonly meta: { readonly hpke: { readonly infoHex: string }; readonly stampScheme: string }
  readonly stamps: ReadonlyArray<StampVector>
  readonly otpBundles: ReadonlyArray<OtpBundleVector>
  readonly credentialBundles: ReadonlyArray<CredentialBundleVector>
  readonly realTurnkeySignedBundles: ReadonlyArray<SignedBundleVector>
}

const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * The shared vectors file: `shared/spec/wallet-crypto-vectors.json` in the nearest directory above this one that has
 * it, which is `../shared` from the repository root and also found from a git worktree kept elsewhere.
 */
const vectorsPath = (): string => {
  for (let dir = here; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "shared/spec/wallet-crypto-vectors.json")
    if (existsSync(candidate)) return candidate
    if (path.dirname(dir) === dir) throw new Error(`no shared/spec/wallet-crypto-vectors.json above ${here}`)
  }
}

/** The vectors of the wallet crypto spec, parsed. */
export const vectors: Vectors = JSON.parse(readFileSync(vectorsPath(), "utf8")) as Vectors

/** Hex to bytes for tests, throwing on bad input (test data is trusted). */
export const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "hex"))

/** A copy of `bytes` with the byte at `at` (modulo the length) XORed with a non-zero `mask`. */
export const flipByte = (bytes: Uint8Array, at: number, mask: number): Uint8Array => {
  const copy = Uint8Array.from(bytes)
  const index = at % copy.length
  copy[index] = (copy[index] ?? 0) ^ mask
  return copy
}
