import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

interface Vectors {
  readonly stamps: ReadonlyArray<{
    readonly description: string
    readonly privateKeyHex: string
    readonly publicKeyHex: string
    readonly payload: string
    readonly stampHeaderValue: string
    readonly signatureIsHighS: boolean
  }>
  readonly otpBundles: ReadonlyArray<{
    readonly targetPrivateKeyHex: string
    readonly tekPublicKeyHex: string
    readonly otpCode: string
    readonly encryptedOtpBundle: string
  }>
}

const here = path.dirname(fileURLToPath(import.meta.url))

/** The shared vectors file, `../shared/spec/wallet-crypto-vectors.json` from the repository root. */
export const vectors: Vectors = JSON.parse(
  readFileSync(path.resolve(here, "../../../../../shared/spec/wallet-crypto-vectors.json"), "utf8")
) as Vectors
