import { Context, Effect, Layer, Option } from "effect"
import type { InvalidInput, StoreFailure } from "../kernel/index.js"
import type { Ledger } from "../ledger/index.js"
import { type Platform, PlatformErrors } from "../platforms/index.js"
import type { QuoteExpired, QuoteNotFound, QuoteTransitionRefused } from "./PaymentErrors.js"
import type { QuoteId } from "./Quote.js"
import { IncomingApprovals } from "./IncomingApprovals.js"
import { Quotes } from "./Quotes.js"
import type { Transaction } from "./Transaction.js"
import * as UmaReceipts from "./UmaReceipts.js"
import type { UmaReceiveRequest } from "./UmaReceiveRequest.js"

/** The sandbox's stand-ins for the world outside: a payer funding a real-time funded quote, an UMA sender. */
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
    /**
     * `POST /sandbox/uma/receive`: an UMA sender pays a customer of the platform, deposited to the customer's
     * default UMA deposit account or primary internal account, completed, held pending or refused as the sender's
     * sandbox address says (`UmaReceipts.receive`), or held for the platform's decision, which a webhook reply within
     * 5 seconds gives (`IncomingApprovals.askPlatform`). Sandbox platforms only. Answers the incoming transaction.
     */
    readonly receiveUma: (
      platform: Platform.Platform,
      request: UmaReceiveRequest
    ) => Effect.Effect<Transaction, PlatformErrors.SandboxOnly | UmaReceipts.ReceiveError>
  }
>() {}

export const layer = Layer.effect(
  SandboxPayments,
  Effect.gen(function* () {
    const quotes = yield* Quotes
    const receipts = yield* Effect.context<UmaReceipts.Requirements>()
    const approvals = yield* IncomingApprovals
    return {
      receiveUma: Effect.fn("SandboxPayments.receiveUma")(function* (platform, request) {
        if (platform.environment !== "SANDBOX") return yield* PlatformErrors.SandboxOnly.of()
        const received = yield* Effect.provide(UmaReceipts.receive(platform, request), receipts)
        // A payment held for the platform is decided by its webhook reply when one comes within the window.
        return yield* approvals.askPlatform(platform, received)
      }),
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
