import { existsSync, readFileSync } from "node:fs"
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
    readonly signerPrivateKeyHex: string
    readonly signerPublicKeyHex: string
    readonly targetPrivateKeyHex: string
    readonly tekPrivateKeyHex: string
    readonly tekPublicKeyHex: string
    readonly otpCode: string
    readonly encryptedOtpBundle: string
  }>
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
