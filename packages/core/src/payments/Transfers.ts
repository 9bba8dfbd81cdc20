import { Context, Effect, Layer, Option } from "effect"
import type { InternalAccount } from "../accounts/index.js"
import { InvalidInput } from "../kernel/index.js"
import { Ledger } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import * as PaymentParties from "./PaymentParties.js"
import { isInternalAccountId } from "./PaymentPosting.js"
import { Quotes } from "./Quotes.js"
import type { Transaction } from "./Transaction.js"
import { TransactionRepo } from "./TransactionRepo.js"
import type { TransferInRequest, TransferOutRequest } from "./TransferRequest.js"
import type { InvalidUmaAddress, LookupNotFound, MissingMandatoryUserInfo, UmaNotFound } from "./UmaErrors.js"

type Quoting = Quotes["Type"]["create"]

/** The refusals of UMA destinations and lookups: a transfer names accounts and no lookup, so it never meets them. */
type UmaRefusal = InvalidUmaAddress | LookupNotFound | MissingMandatoryUserInfo | UmaNotFound
type TransferError = Exclude<Effect.Effect.Error<ReturnType<Quoting>>, UmaRefusal>

const accountsOnly = {
  InvalidUmaAddress: Effect.die,
  LookupNotFound: Effect.die,
  MissingMandatoryUserInfo: Effect.die,
  UmaNotFound: Effect.die
} as const

/**
 * The deprecated same-currency transfers, on the quote machinery: each is a quote of one currency, locked on the
 * sending side and executed at once, whose rail outcomes follow the spec's transfer table (not the quote payout
 * table). Answer the transaction.
 */
export class Transfers extends Context.Tag("@payrail/core/Transfers")<
  Transfers,
  {
    /** Pushes money from an internal account to an external account of the same currency. */
    readonly transferOut: (
      platform: Platform.Platform,
      request: TransferOutRequest,
      options?: TransferOptions
    ) => Effect.Effect<Transaction, TransferError>
    /** Pulls money from an external account (ACH) into an internal account of the same currency. */
    readonly transferIn: (
      platform: Platform.Platform,
      request: TransferInRequest,
      options?: TransferOptions
    ) => Effect.Effect<Transaction, TransferError>
  }
>() {}

/** Who initiates a transfer: an agent (`agentId`, set on its quote and transaction), or the platform (none). */
export interface TransferOptions {
  readonly agentId?: string
}

const invalid = InvalidInput.InvalidInput.onField

export const layer = Layer.effect(
  Transfers,
  Effect.gen(function* () {
    const quotes = yield* Quotes
    const transactions = yield* TransactionRepo
    const ledger = yield* Ledger.Ledger
    const accounts = yield* Effect.context<PaymentParties.Requirements>()

    // Resolves both ends (404s, statuses, pullability) and checks they share one currency.
    const sameCurrency = (
      platform: Platform.Platform,
      source: { readonly accountId: string },
      destination: { readonly accountId: string; readonly paymentRail?: string }
    ) =>
      Effect.gen(function* () {
        const parties = yield* PaymentParties.resolve(platform, {
          source: { sourceType: "ACCOUNT", accountId: source.accountId },
          destination: { destinationType: "ACCOUNT", ...destination }
        }).pipe(Effect.provide(accounts), Effect.catchTags(accountsOnly))
        if (parties.source.currency !== parties.destination.currency) {
          return yield* invalid(
            "destination.accountId",
            "must be in the source's currency; a quote converts currencies"
          )
        }
        return parties
      })

    const transactionOf = (platform: Platform.Platform, transactionId: Transaction["id"]) =>
      Effect.flatMap(transactions.findById(platform.id, transactionId), (found) =>
        Option.match(found, {
          onNone: () => Effect.dieMessage(`transfer transaction ${transactionId} not found`),
          onSome: (stored) => Effect.succeed(stored.transaction)
        })
      )

    return {
      transferOut: Effect.fn("Transfers.transferOut")(function* (
        platform: Platform.Platform,
        request: TransferOutRequest,
        options: TransferOptions = {}
      ) {
        if (!isInternalAccountId(request.source.accountId)) {
          return yield* invalid("source.accountId", "must be an internal account")
        }
        if (isInternalAccountId(request.destination.accountId)) {
          return yield* invalid("destination.accountId", "must be an external account")
        }
        yield* sameCurrency(platform, request.source, request.destination)
        const amount =
          request.amount ??
          Number(
            Ledger.available(
              yield* ledger
                .balance(platform.id, request.source.accountId as InternalAccount.InternalAccountId)
                .pipe(Effect.catchTag("InvalidPosting", Effect.die))
            )
          )
        if (amount <= 0) return yield* invalid("amount", "the source has no available balance to send")
        const quote = yield* quotes
          .create(
            platform,
            {
              source: { sourceType: "ACCOUNT", accountId: request.source.accountId },
              destination: {
                destinationType: "ACCOUNT",
                accountId: request.destination.accountId,
                ...(request.destination.paymentRail === undefined
                  ? {}
                  : { paymentRail: request.destination.paymentRail })
              },
              lockedCurrencySide: "SENDING",
              lockedCurrencyAmount: amount,
              immediatelyExecute: true,
              ...(request.remittanceInformation === undefined
                ? {}
                : { remittanceInformation: request.remittanceInformation }),
              ...(request.purposeOfPayment === undefined ? {} : { purposeOfPayment: request.purposeOfPayment })
            },
            { purpose: "TRANSFER", ...(options.agentId === undefined ? {} : { agentId: options.agentId }) }
          )
          .pipe(Effect.catchTags(accountsOnly))
        return yield* transactionOf(platform, quote.transactionId)
      }),
      transferIn: Effect.fn("Transfers.transferIn")(function* (
        platform: Platform.Platform,
        request: TransferInRequest,
        options: TransferOptions = {}
      ) {
        if (isInternalAccountId(request.source.accountId)) {
          return yield* invalid("source.accountId", "must be an external account that can be pulled")
        }
        if (!isInternalAccountId(request.destination.accountId)) {
          return yield* invalid("destination.accountId", "must be an internal account")
        }
        if (request.amount === undefined) return yield* invalid("amount", "is required to pull money")
        yield* sameCurrency(platform, request.source, request.destination)
        const quote = yield* quotes
          .create(
            platform,
            {
              source: { sourceType: "ACCOUNT", accountId: request.source.accountId },
              destination: { destinationType: "ACCOUNT", accountId: request.destination.accountId },
              lockedCurrencySide: "SENDING",
              lockedCurrencyAmount: request.amount,
              immediatelyExecute: true
            },
            { purpose: "TRANSFER", ...(options.agentId === undefined ? {} : { agentId: options.agentId }) }
          )
          .pipe(Effect.catchTags(accountsOnly))
        return yield* transactionOf(platform, quote.transactionId)
      })
    }
  })
)
