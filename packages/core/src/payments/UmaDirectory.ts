import { Context, type Effect, type Option } from "effect"
import type { UmaAddress } from "../customers/index.js"
import type { JsonObject } from "../kernel/index.js"
import type { Platform, PlatformConfig } from "../platforms/index.js"
import type { UmaLookupFailed, UmaNotFound } from "./UmaErrors.js"

/** What a counterparty says of one of its UMA addresses. */
export interface UmaReceiver {
  /** The currency codes the receiver accepts, preferred first. */
  readonly currencies: ReadonlyArray<string>
  /** The payer data the receiver asks for; `mandatory` ones must come with the payment. */
  readonly requiredPayerDataFields: ReadonlyArray<PlatformConfig.CounterpartyField>
  /**
   * The payee data the counterparty returns to the sender (the reference's `receiverCustomerInfo`, shared by the
   * receiving platform when it accepts the payment), when it shares any: it becomes the quote's and the
   * transaction's `counterpartyInformation`.
   */
  readonly receiverCustomerInfo?: JsonObject.JsonObject | undefined
}

/**
 * The UMA directory port: asks the counterparty that serves an address on another domain than the platform's own
 * who receives there (a real adapter speaks the UMA protocol: LNURLP request and response, with the sender's address
 * when given). Addresses on the platform's own `umaDomain` never reach it: they are the platform's customers. Reads
 * only, so concurrent calls are independent. `@payrail/sandbox` answers the spec's sandbox addresses and simulates
 * every other counterparty.
 */
export class UmaDirectory extends Context.Tag("@payrail/core/UmaDirectory")<
  UmaDirectory,
  {
    readonly receiver: (request: {
      readonly platform: Platform.Platform
      readonly receiver: UmaAddress.UmaAddress
      readonly sender: Option.Option<UmaAddress.UmaAddress>
    }) => Effect.Effect<UmaReceiver, UmaNotFound | UmaLookupFailed>
  }
>() {}
