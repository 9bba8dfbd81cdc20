import { Context, type Effect } from "effect"
import type { ExternalAccount } from "./ExternalAccount.js"

/**
 * Checks that the holder of a self-custody wallet signed the ownership challenge (EIP-191 for EVM wallets, base58
 * Ed25519 for Solana, and so on). `@payrail/sandbox` simulates it; a real chain verifier plugs in here. It keeps no
 * state: the challenge message is derived from the account, so calls are independent.
 */
export class OwnershipVerifier extends Context.Tag("@payrail/core/OwnershipVerifier")<
  OwnershipVerifier,
  {
    readonly verify: (input: {
      readonly account: ExternalAccount
      readonly messageToSign: string
      readonly signature: string
    }) => Effect.Effect<boolean>
  }
>() {}
