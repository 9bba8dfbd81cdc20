import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

interface Vectors {
  readonly stamps: ReadonlyArray<{
    readonly privateKeyHex: string
    readonly payload: string
    readonly stampHeaderValue: string
    readonly deterministic: boolean
  }>
  readonly otpBundles: ReadonlyArray<{
    readonly signerPublicKeyHex: string
    readonly targetPrivateKeyHex: string
    readonly targetBundle: string
    readonly tekPublicKeyHex: string
    readonly otpCode: string
  }>
  readonly credentialBundles: ReadonlyArray<{
    readonly recipientPrivateKeyHex: string
    readonly bundle: string
    readonly expectedSessionPrivateKeyHex: string
    readonly expectedSessionPublicKeyCompressedHex: string
  }>
}

const here = path.dirname(fileURLToPath(import.meta.url))

/** The shared vectors file, `../shared/spec/wallet-crypto-vectors.json` from the repository root. */
export const vectors: Vectors = JSON.parse(
  readFileSync(path.resolve(here, "../../../../../shared/spec/wallet-crypto-vectors.json"), "utf8")
) as Vectors
