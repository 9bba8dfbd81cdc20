import { Context, type DateTime, type Effect } from "effect"
import type { PlatformId } from "../kernel/index.js"
import type { PaymentInstructions } from "./Quote.js"

/** What a payer must be told to fund a real-time funded quote. */
export interface FundingRequest {
  readonly platformId: PlatformId.PlatformId
  readonly quoteId: string
  /** The sending currency's code: the rail the payer pays on follows from it. */
  readonly currency: string
  /** The exact amount the payer sends, in minor units of `currency`. */
  readonly amountMinor: bigint
  /** The reference that ties the payer's money to the quote (bank rails carry it in the payment). */
  readonly reference: string
  /** When the quote stops accepting funds. */
  readonly expiresAt: DateTime.Utc
}

/**
 * The provider of real-time funding instructions (a collection account at a bank, a wallet address, a Lightning
 * invoice): where the payer of a `REALTIME_FUNDING` quote sends the money. `instructionsFor` answers the quote's
 * `paymentInstructions`; it is called once per quote, when the quote is created. `@payrail/sandbox` answers bank
 * details with the reference, a wallet address, or a signed BOLT11 invoice for the exact amount.
 */
export class FundingInstructions extends Context.Tag("@payrail/core/FundingInstructions")<
  FundingInstructions,
  {
    readonly instructionsFor: (request: FundingRequest) => Effect.Effect<ReadonlyArray<PaymentInstructions>>
  }
>() {}
