import { Context, type Effect } from "effect"
import type { CryptoNetwork } from "./WithdrawalFeeRequest.js"

/** What a network would charge now to carry a withdrawal: in its own asset, and converted to the withdrawn one. */
export interface NetworkFee {
  /** Minor units of `asset` (wei, lamports, sats...). */
  readonly networkFee: number
  readonly asset: string
  /** The same fee in minor units of the withdrawn currency, at current rates. */
  readonly inWithdrawalCurrency: number
}

/**
 * The port that prices a withdrawal's network fee. `@payrail/sandbox` answers a fixed fee per network
 * (`SandboxWithdrawalFees`); a production deployment plugs in a node or a fee oracle. It is never called for a
 * network that does not carry `currency`.
 */
export class WithdrawalFeeProvider extends Context.Tag("@payrail/core/WithdrawalFeeProvider")<
  WithdrawalFeeProvider,
  {
    readonly networkFee: (request: {
      readonly network: CryptoNetwork
      readonly currency: string
      readonly amountMinor: number
      readonly destinationAddress: string
    }) => Effect.Effect<NetworkFee>
  }
>() {}
