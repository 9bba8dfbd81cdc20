import { Context, Effect, Layer, Option } from "effect"
import type { InvalidInput, StoreFailure } from "../kernel/index.js"
import type { Ledger } from "../ledger/index.js"
import { type Platform, PlatformErrors } from "../platforms/index.js"
import type { QuoteExpired, QuoteNotFound, QuoteTransitionRefused } from "./PaymentErrors.js"
import type { QuoteId } from "./Quote.js"
import { Quotes } from "./Quotes.js"
import type { Transaction } from "./Transaction.js"

/** The sandbox's stand-ins for the world outside: a payer funding a real-time funded quote. */
export class SandboxPayments extends Context.Tag("@payrail/core/SandboxPayments")<
  SandboxPayments,
  {
    /**
     * `POST /sandbox/send`: the payer of a `REALTIME_FUNDING` quote sends `currencyAmount` (default: the quoted
     * amount) of `currencyCode`, as `Quotes.receiveFunding` describes. Sandbox platforms only.
     */
    readonly send: (
      platform: Platform.Platform,
      request: {
        readonly quoteId: QuoteId
        readonly currencyCode: string
        readonly currencyAmount?: number | undefined
      }
    ) => Effect.Effect<
      Transaction,
      | PlatformErrors.SandboxOnly
      | QuoteNotFound
      | QuoteExpired
      | QuoteTransitionRefused
      | InvalidInput.InvalidInput
      | Ledger.BalanceLimitExceeded
      | StoreFailure.StoreFailure
    >
  }
>() {}

export const layer = Layer.effect(
  SandboxPayments,
  Effect.gen(function* () {
    const quotes = yield* Quotes
    return {
      send: Effect.fn("SandboxPayments.send")(function* (platform, request) {
        if (platform.environment !== "SANDBOX") return yield* PlatformErrors.SandboxOnly.of()
        return yield* quotes
          .receiveFunding(platform, {
            quoteId: request.quoteId,
            currencyCode: request.currencyCode,
            amountMinor: Option.map(Option.fromNullable(request.currencyAmount), BigInt)
          })
          .pipe(
            // A real-time funded payment takes its money from rail clearing, which no guard limits.
            Effect.catchTag("InsufficientFunds", Effect.die)
          )
      })
    }
  })
)
