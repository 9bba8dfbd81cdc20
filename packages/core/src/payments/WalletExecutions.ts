import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { InternalAccount } from "../accounts/index.js"
import { type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { SignedRetry, WalletErrors, WalletStep } from "../wallets/index.js"
import { QuoteExpired } from "./PaymentErrors.js"
import { hasLapsed } from "./QuoteLifetime.js"
import * as QuoteState from "./QuoteState.js"
import type { Quote, QuoteId } from "./Quote.js"
import { Quotes } from "./Quotes.js"
import * as WalletPayload from "./WalletPayload.js"

type QuotesService = Context.Tag.Service<Quotes>
type ExecuteError = Effect.Effect.Error<ReturnType<QuotesService["execute"]>>

/**
 * `POST /quotes/{id}/execute` with the wallet headers. A quote funded by an embedded wallet executes only with a
 * stamp over its `payloadToSign` by an active session of that wallet, given either way the spec and the reference
 * allow: as a signed retry (the first call answers a 202 challenge whose `payloadToSign` is the quote's; the retry
 * carries the stamp and its `Request-Id`, consumed in the execution's unit of work; a quote that can no longer execute
 * is refused on the first call, with no challenge), or directly (the stamp alone,
 * as the reference's clients send it: the quote's own compare-and-set makes the execution single use). Either way a
 * delegated key of the wallet in scope (`EXECUTE_QUOTE`) may sign in place of a session. Other quotes ignore the
 * wallet headers.
 */
export class WalletExecutions extends Context.Tag("@payrail/core/WalletExecutions")<
  WalletExecutions,
  {
    readonly execute: (
      platform: Platform.Platform,
      id: QuoteId,
      headers: SignedRetry.WalletHeaders
    ) => Effect.Effect<
      WalletStep.WalletStep<Quote>,
      ExecuteError | SignedRetry.RetryRefused | StoreFailure.StoreFailure
    >
  }
>() {}

export const layer = Layer.effect(
  WalletExecutions,
  Effect.gen(function* () {
    const quotes = yield* Quotes
    const retry = yield* SignedRetry.SignedRetry
    const unitOfWork = yield* UnitOfWork.UnitOfWork

    const execute = Effect.fn("WalletExecutions.execute")(function* (
      platform: Platform.Platform,
      id: QuoteId,
      headers: SignedRetry.WalletHeaders
    ) {
      const quote = yield* quotes.get(platform, id)
      const wallet = WalletPayload.of(quote)
      // Another quote executes as read here (its compare-and-set decides): no second read.
      if (Option.isNone(wallet)) {
        return WalletStep.Done({ value: yield* quotes.execute(platform, id, { walletSigned: false, read: quote }) })
      }
      const accountId = wallet.value.accountId as InternalAccount.InternalAccountId
      const action = { accountId, operation: "EXECUTE_QUOTE", targetId: quote.id, body: undefined } as const
      if (!SignedRetry.isRetry(headers)) {
        // A challenge only for a quote that can still execute: a finished or lapsed quote is refused as its execute
        // would be, rather than after the device has signed.
        if (hasLapsed(quote, yield* DateTime.now)) {
          return yield* QuoteExpired.of(quote.id, DateTime.formatIso(quote.expiresAt))
        }
        yield* QuoteState.transition(quote.id, quote.status, "EXECUTE")
        const request = yield* retry.issue(platform.id, action, { payloadToSign: () => wallet.value.payloadToSign })
        return WalletStep.Challenge({ request })
      }
      if (Option.isSome(headers.requestId)) {
        const authorized = yield* retry.authorize(platform.id, action, headers)
        const executed = yield* unitOfWork.transaction(
          Effect.zipRight(
            retry.consume(platform.id, authorized.request),
            quotes.execute(platform, id, { walletSigned: true })
          )
        )
        return WalletStep.Done({ value: executed })
      }
      // The stamp alone, over the quote's own payload, by an active session of the paying wallet.
      if (Option.isNone(headers.signature)) return yield* WalletErrors.WalletSignatureMissing.of()
      // A delegated key of the wallet that may execute quotes signs in place of a session.
      yield* retry.verifyBySession(
        platform.id,
        accountId,
        headers.signature.value,
        wallet.value.payloadToSign,
        undefined,
        "EXECUTE_QUOTE"
      )
      return WalletStep.Done({ value: yield* quotes.execute(platform, id, { walletSigned: true }) })
    })

    return WalletExecutions.of({ execute })
  })
)
