import { Redacted } from "effect"
import { WalletAuth } from "@payrail/wallet-auth"

/** Test keys only: the master key wallet secrets are sealed under, and the P-256 key that signs target bundles. */
export const testKeys: WalletAuth.Options = {
  masterKey: Redacted.make("11".repeat(32)),
  signerPrivateKey: Redacted.make("22".repeat(32))
}

/**
 * The wallet ports `Domain.layer` needs beyond the sandbox's, for tests: the crypto of `@payrail/wallet-auth` with
 * fixed test keys (and its `SignerPublicKey`). Needs `Ids`.
 */
export const layer = WalletAuth.layer(testKeys)
