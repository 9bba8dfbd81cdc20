import { Context, DateTime, Effect, Either, Layer, Option } from "effect"
import { Customer, CustomerRepo } from "../customers/index.js"
import {
  Currency,
  FieldError,
  Ids,
  InvalidInput,
  Outbox,
  type Page,
  ResourceId,
  type StoreFailure,
  UnitOfWork
} from "../kernel/index.js"
import { Jobs } from "../events/index.js"
import { Ledger, type RecordedEvent, SystemAccounts } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import { WalletErrors } from "../wallets/index.js"
import * as PaymentParties from "./PaymentParties.js"
import { entriesOf, isBookTransfer } from "./PaymentPosting.js"
import {
  type ExternalAccountVerificationRequired,
  QuoteExpired,
  QuoteNotFound,
  QuoteTransitionRefused
} from "./PaymentErrors.js"
import * as PaymentSettlementJob from "./PaymentSettlementJob.js"
import { FundingInstructions } from "./FundingInstructions.js"
import { FxRateCache } from "./FxRateCache.js"
import * as OwnershipThreshold from "./OwnershipThreshold.js"
import { type PriceError, Pricer } from "./Pricer.js"
import { Quote, QuoteId } from "./Quote.js"
import { QuoteAuthorizationGate } from "./QuoteAuthorizationGate.js"
import * as QuoteExpiryJob from "./QuoteExpiryJob.js"
import { hasLapsed, lifetimeOf } from "./QuoteLifetime.js"
import { type QuoteFilter, QuoteRepo } from "./QuoteRepo.js"
import type { CreateQuoteRequest } from "./QuoteRequest.js"
import * as QuoteState from "./QuoteState.js"
import type * as Rails from "./Rails.js"
import { Transaction, TransactionId, type TransactionStatus } from "./Transaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import * as TransactionState from "./TransactionState.js"
import * as WalletPayload from "./WalletPayload.js"
import { TransactionRepo } from "./TransactionRepo.js"

type ExecuteError = QuoteNotFound | QuoteExpired | ExecutionRefused

/** What an execution can be refused for once its quote is found and current. */
type ExecutionRefused =
  QuoteTransitionRefused | Ledger.InsufficientFunds | Ledger.BalanceLimitExceeded | StoreFailure.StoreFailure

/**
 * Quotes: a locked price for one payment, then its execution. Creating a quote prices it (`Pricer`), stores it with
 * its `PENDING` transaction and schedules its expiry, in one unit of work. Executing it, in one unit of work, moves
 * it to `PROCESSING` (compare-and-set: of concurrent executes exactly one wins, the others get 409), reserves the
 * whole movement in the ledger as a pending posting (an internal source's available balance never goes below zero:
 * `INSUFFICIENT_FUNDS` otherwise, and nothing changes), records the `PROCESSING` transaction and its webhook, and
 * enqueues the settlement job that follows the payment on its rail (`PaymentSettlementJob`).
 */
export class Quotes extends Context.Tag("@payrail/core/Quotes")<
  Quotes,
  {
    /**
     * Prices and stores a quote (and executes it at once with `immediatelyExecute`). A `REALTIME_FUNDING` quote
     * carries the provider's `paymentInstructions` and a `reference` on its transaction, and waits for the payer's
     * money (`receiveFunding`); when the `QuoteAuthorizationGate` asks for strong customer authentication, it is
     * created `PENDING_AUTHORIZATION` with its challenge instead, its instructions withheld until it is authorized. `options.purpose` says which outcome table the rails apply (`TRANSFER` for the
     * same-currency transfer endpoints).
     */
    readonly create: (
      platform: Platform.Platform,
      request: CreateQuoteRequest,
      options?: CreateOptions
    ) => Effect.Effect<
      Quote,
      | Effect.Effect.Error<ReturnType<typeof PaymentParties.resolve>>
      | PriceError
      | ExecutionRefused
      | ExternalAccountVerificationRequired
    >
    readonly get: (
      platform: Platform.Platform,
      id: QuoteId
    ) => Effect.Effect<Quote, QuoteNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: QuoteFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Quote>, StoreFailure.StoreFailure>
    /**
     * Executes a pending quote. A quote funded by an embedded wallet executes only with `walletSigned` (its owner's
     * device stamped its `payloadToSign`, checked by `WalletExecutions`); otherwise it is 401
     * `WALLET_SIGNATURE_MISSING`. `read`: the quote `id` as the caller has just read it (`get`), which is then not
     * read again: the execution's compare-and-set on its status decides, as it does after a read of its own.
     */
    readonly execute: (
      platform: Platform.Platform,
      id: QuoteId,
      options?: { readonly walletSigned: boolean; readonly read?: Quote | undefined }
    ) => Effect.Effect<Quote, ExecuteError | WalletErrors.WalletSignatureMissing>
    /**
     * Executes a quote waiting in `PENDING_AUTHORIZATION` whose challenge the caller has just verified, as `execute`
     * would (without asking for authentication again); its `scaChallenge` is cleared. A real-time funded quote (held
     * at creation) goes back to `PENDING` with its `paymentInstructions`, to wait for the payer's money. Any other
     * status is 409. Joins the caller's unit of work.
     */
    readonly executeAuthorized: (platform: Platform.Platform, id: QuoteId) => Effect.Effect<Quote, ExecuteError>
    /**
     * The payer's money for a `REALTIME_FUNDING` quote arrived: `amountMinor` of `currencyCode`. The exact quoted
     * amount executes the quote as an execute would (the payment starts); any other amount fails the quote and its
     * transaction with `FUNDING_AMOUNT_MISMATCH`, the money going back to the payer (a completed refund). Answers the
     * transaction. A currency other than the quote's sending currency is `INVALID_INPUT`; a quote of another source,
     * or not pending, is 409; an expired one `QUOTE_EXPIRED`.
     */
    readonly receiveFunding: (
      platform: Platform.Platform,
      funding: {
        readonly quoteId: QuoteId
        readonly currencyCode: string
        readonly amountMinor: Option.Option<bigint>
      }
    ) => Effect.Effect<Transaction, ExecuteError | InvalidInput.InvalidInput>
  }
>() {}

/**
 * How a quote is created: which outcome table the rails apply to it, and the agent creating it (`agentId`, set on the
 * quote and its transaction; absent for the platform's own quotes).
 */
export interface CreateOptions {
  readonly purpose: Rails.RailLeg["purpose"]
  readonly agentId?: string
}

// The reference a real-time funded quote's payer sends with the money: short, unambiguous, tied to the quote.
const fundingReferenceOf = (quoteId: QuoteId) => `PR${quoteId.slice(-12).toUpperCase()}`

const currencyOf = (code: string) =>
  Option.getOrThrowWith(Currency.find(code), () => new Error(`unknown currency ${code}`))

export const layer = Layer.effect(
  Quotes,
  Effect.gen(function* () {
    const quotes = yield* QuoteRepo
    const transactions = yield* TransactionRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const store = yield* UnitOfWork.UnitOfWork
    const outbox = yield* Outbox.Outbox
    const ledger = yield* Ledger.Ledger
    const jobs = yield* Jobs.Jobs
    const ids = yield* Ids.Ids
    const pricer = yield* Pricer
    const rates = yield* FxRateCache
    const funding = yield* FundingInstructions
    const gate = yield* QuoteAuthorizationGate
    const event = TransactionEvents.withIds(ids)
    const accounts = yield* Effect.context<PaymentParties.Requirements>()

    const find = (platform: Platform.Platform, id: QuoteId) =>
      Effect.flatMap(
        quotes.findById(platform.id, id),
        Option.match({ onNone: () => Effect.fail(QuoteNotFound.of(id)), onSome: Effect.succeed })
      )

    // A quote's transaction, stored with it: its absence is a defect.
    const transactionOf = (platform: Platform.Platform, quote: Quote) =>
      Effect.flatMap(transactions.findById(platform.id, quote.transactionId), (found) =>
        Option.match(found, {
          onNone: () => Effect.dieMessage(`quote ${quote.id} has no transaction ${quote.transactionId}`),
          onSome: Effect.succeed
        })
      )

    // Posts the quote's movement: `pending` reserves it until its rail settles, `posted` settles it at once (with its
    // event recorded in the same step). A currency the platform took on after the quote was created may lack its
    // system accounts: they are opened (idempotently) and the posting tried once more.
    const postMovement = (
      platform: Platform.Platform,
      quote: Quote,
      status: Ledger.Posting["status"],
      recorded?: RecordedEvent.RecordedEvent
    ) => {
      const posting: Ledger.Posting = {
        platformId: platform.id,
        idempotencyKey: `quote:${quote.id}`,
        status,
        entries: entriesOf(platform.id, quote),
        description: quote.description ?? `Quote ${quote.id}`
      }
      if (posting.entries.length < 2) {
        return recorded === undefined
          ? Effect.succeed(Option.none<string>())
          : Effect.as(outbox.append(recorded.event), Option.none<string>())
      }
      const post = (recorded === undefined ? ledger.post(posting) : ledger.postRecording(posting, recorded)).pipe(
        Effect.map((result) => Option.some<string>(result.postingId))
      )
      return post.pipe(
        Effect.catchTag("InvalidPosting", () =>
          ledger
            .openAccounts(
              SystemAccounts.accountsFor(platform.id, [quote.sendingCurrency.code, quote.receivingCurrency.code])
            )
            .pipe(Effect.zipRight(post))
        ),
        Effect.catchTags({ InvalidPosting: Effect.die, IdempotencyKeyReused: Effect.die })
      )
    }

    // Moves the quote's transaction through `events` (each must be allowed: the quote's transition decided) with
    // compare-and-set, without reading it first: it waits where its quote waits (`PENDING`, or
    // `PENDING_AUTHORIZATION` with it). Another writer in between, or a transaction elsewhere, is a defect.
    const advance = (
      platform: Platform.Platform,
      quote: Quote,
      events: ReadonlyArray<TransactionState.TransactionEvent>,
      fields: {
        readonly now: DateTime.Utc
        readonly postingId: Option.Option<string>
        readonly settledAt?: DateTime.Utc
      }
    ) =>
      Effect.gen(function* () {
        const from = quote.status === "PENDING_AUTHORIZATION" ? "PENDING_AUTHORIZATION" : "PENDING"
        let status: TransactionStatus = from
        for (const event of events) {
          status = yield* Either.match(TransactionState.transition(quote.transactionId, status, event), {
            onLeft: (refused) => Effect.dieMessage(refused.reason),
            onRight: Effect.succeed
          })
        }
        const moved = yield* transactions.advance(platform.id, quote.transactionId, from, {
          status,
          updatedAt: fields.now,
          settledAt: fields.settledAt,
          postingId: fields.postingId
        })
        return yield* Option.match(moved, {
          onNone: () =>
            Effect.dieMessage(`transaction ${quote.transactionId} was not ${from} while its quote ${quote.id} moved`),
          onSome: (stored) => Effect.succeed(stored.transaction)
        })
      })

    // The quote waits for strong customer authentication: `PENDING_AUTHORIZATION` with its challenge, its transaction
    // too (with its webhook); nothing is reserved until it is authorized.
    const holdForAuthorization = (
      platform: Platform.Platform,
      quote: Quote,
      challenge: Quote["scaChallenge"] & {},
      now: DateTime.Utc
    ) =>
      Effect.gen(function* () {
        const status = yield* Either.match(QuoteState.transition(quote.id, quote.status, "REQUIRE_AUTHORIZATION"), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        const held = new Quote(
          { ...quote, status, updatedAt: now, scaChallenge: challenge },
          { disableValidation: true }
        )
        if (!(yield* quotes.transition(platform.id, quote.id, quote.status, held))) {
          const winner = Option.map(yield* quotes.findById(platform.id, quote.id), (current) => current.status)
          return yield* QuoteTransitionRefused.of(
            quote.id,
            Option.getOrElse(winner, () => quote.status),
            "EXECUTE"
          )
        }
        const waiting = yield* advance(platform, quote, ["AUTHORIZATION_REQUIRED"], {
          now,
          postingId: Option.none()
        })
        yield* outbox.append(yield* event(platform.id, waiting))
        return { quote: held, transaction: waiting }
      })

    // The execution proper, inside the caller's unit of work: by the platform's execute (`funding: false`), or by the
    // arrival of a real-time funded quote's money (`funding: true`).
    const executeWithin = (
      platform: Platform.Platform,
      quote: Quote,
      how: {
        readonly funding: boolean
        readonly purpose: Rails.RailLeg["purpose"]
        /** Strong customer authentication was just completed: the quote leaves `PENDING_AUTHORIZATION`. */
        readonly authorized?: boolean
      }
    ) =>
      Effect.gen(function* () {
        const now = yield* DateTime.now
        if (hasLapsed(quote, now)) {
          return yield* QuoteExpired.of(quote.id, DateTime.formatIso(quote.expiresAt))
        }
        // A real-time funded quote is executed by its payer's money, never by a call.
        if ((quote.source.sourceType === "REALTIME_FUNDING") !== how.funding) {
          return yield* QuoteTransitionRefused.of(quote.id, quote.status, "EXECUTE")
        }
        const bookTransfer = isBookTransfer(quote)
        const authorized = how.authorized === true
        const executing = yield* Either.match(
          QuoteState.transition(quote.id, quote.status, authorized ? "AUTHORIZE" : "EXECUTE"),
          { onLeft: Effect.fail, onRight: Effect.succeed }
        )
        // Strong customer authentication first when the gate asks for it (never for the payer's own money).
        if (!authorized && !how.funding) {
          const challenge = yield* gate.challengeFor(platform, quote)
          if (Option.isSome(challenge)) return yield* holdForAuthorization(platform, quote, challenge.value, now)
        }
        const funded: TransactionState.TransactionEvent = authorized ? "AUTHORIZED" : "FUNDED"
        const status = bookTransfer
          ? yield* Either.match(QuoteState.transition(quote.id, executing, "COMPLETE"), {
              onLeft: Effect.die,
              onRight: Effect.succeed
            })
          : executing
        const executed = new Quote(
          { ...quote, status, updatedAt: now, scaChallenge: undefined },
          { disableValidation: true }
        )
        // The compare-and-set first: a losing concurrent execute stops here, before touching the ledger.
        if (!(yield* quotes.transition(platform.id, quote.id, quote.status, executed))) {
          // The winner may have been the expiry job, not another execute: answer as a later read would have.
          const winner = Option.map(yield* quotes.findById(platform.id, quote.id), (current) => current.status)
          if (Option.contains(winner, "EXPIRED")) {
            return yield* QuoteExpired.of(quote.id, DateTime.formatIso(quote.expiresAt))
          }
          return yield* QuoteTransitionRefused.of(
            quote.id,
            Option.getOrElse(winner, () => quote.status),
            "EXECUTE"
          )
        }
        if (bookTransfer) {
          // Between two internal accounts no rail is crossed: the payment settles in this unit of work. The posting
          // comes last, carrying the transaction's event, so the balances stay locked only until the commit.
          const completed = yield* advance(platform, quote, [funded, "COMPLETED"], {
            now,
            postingId: Option.none(),
            settledAt: now
          })
          const recorded = { event: yield* event(platform.id, completed), postingIdAt: [], balancesAt: [] }
          yield* postMovement(platform, quote, "posted", recorded)
          return { quote: executed, transaction: completed }
        }
        const postingId = yield* postMovement(platform, quote, "pending")
        const processing = yield* advance(platform, quote, [funded], { now, postingId })
        yield* outbox.append(yield* event(platform.id, processing))
        yield* jobs.enqueue(PaymentSettlementJob.newJob(platform.id, processing.id, now, now, how.purpose))
        return { quote: executed, transaction: processing }
      })

    // A real-time funded quote held at creation was authorized: it waits `PENDING` for the payer's money again, with
    // its payment instructions, its transaction too (with its webhook), and its expiry scheduled anew (the expiry job
    // leaves a held quote alone).
    const releaseForFunding = (platform: Platform.Platform, quote: Quote) =>
      Effect.gen(function* () {
        const now = yield* DateTime.now
        if (hasLapsed(quote, now)) return yield* QuoteExpired.of(quote.id, DateTime.formatIso(quote.expiresAt))
        const status = yield* Either.match(QuoteState.transition(quote.id, quote.status, "AUTHORIZE_FUNDING"), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        const paymentInstructions = yield* funding.instructionsFor({
          platformId: platform.id,
          quoteId: quote.id,
          currency: quote.sendingCurrency.code,
          amountMinor: BigInt(quote.totalSendingAmount),
          reference: fundingReferenceOf(quote.id),
          expiresAt: quote.expiresAt
        })
        const released = new Quote(
          { ...quote, status, updatedAt: now, scaChallenge: undefined, paymentInstructions },
          { disableValidation: true }
        )
        if (!(yield* quotes.transition(platform.id, quote.id, quote.status, released))) {
          return yield* QuoteTransitionRefused.of(quote.id, quote.status, "AUTHORIZE_FUNDING")
        }
        const waiting = yield* advance(platform, quote, ["FUNDING_AUTHORIZED"], {
          now,
          postingId: Option.none()
        })
        yield* outbox.append(yield* event(platform.id, waiting))
        yield* jobs.enqueue(QuoteExpiryJob.newJob(platform.id, quote.id, quote.expiresAt))
        return released
      })

    const create = Effect.fn("Quotes.create")(function* (
      platform: Platform.Platform,
      request: CreateQuoteRequest,
      options: CreateOptions = { purpose: "QUOTE" }
    ) {
      const parties = yield* PaymentParties.resolve(platform, request).pipe(Effect.provide(accounts))
      const sendingCode = parties.source.currency
      const receivingCode = parties.destination.currency
      if (request.platformFeeOverride !== undefined && sendingCode !== "USD") {
        return yield* InvalidInput.InvalidInput.onField(
          "platformFeeOverride",
          "applies to quotes whose sending currency is USD only"
        )
      }
      const priced = yield* pricer.price(platform, {
        sendingCurrency: sendingCode,
        receivingCurrency: receivingCode,
        lockedSide: request.lockedCurrencySide,
        lockedAmountMinor: BigInt(request.lockedCurrencyAmount),
        ...(request.platformFeeOverride === undefined
          ? {}
          : {
              platformFeeOverride: {
                fixedFee: request.platformFeeOverride.platformFixedFee,
                variableFeeBps: request.platformFeeOverride.platformVariableFeeBps
              }
            })
      })
      if (parties.destination._tag === "Payout") {
        const { account } = parties.destination
        yield* OwnershipThreshold.check(
          {
            accountId: account.id,
            status: account.status,
            currency: receivingCode,
            decimals: priced.receivingCurrency.decimals
          },
          priced.priced.totalReceivingMinor
        ).pipe(Effect.provideService(FxRateCache, rates))
      }
      const now = yield* DateTime.now
      const quoteId = QuoteId.make(ResourceId.format("Quote", yield* ids.uuid))
      const transactionId = TransactionId.make(ResourceId.format("Transaction", yield* ids.uuid))
      const rail = parties.destination._tag === "Internal" ? "INTERNAL" : parties.destination.rail
      const expiresAt = DateTime.addDuration(now, lifetimeOf(rail))
      const customerId = Option.getOrUndefined(parties.customerId)
      const platformCustomerId =
        customerId === undefined
          ? undefined
          : Option.getOrUndefined(
              Option.map(
                yield* customers.findById(platform.id, customerId as Customer.CustomerId),
                (found) => found.customer.platformCustomerId
              )
            )
      const realtime = parties.source._tag === "RealtimeFunding"
      if (realtime && request.immediatelyExecute === true) {
        return yield* InvalidInput.InvalidInput.onField(
          "immediatelyExecute",
          "is not taken with REALTIME_FUNDING: the payer's money executes the quote"
        )
      }
      const wallet = parties.source._tag === "Internal" && parties.source.account.type === "EMBEDDED_WALLET"
      if (wallet && request.immediatelyExecute === true) {
        return yield* InvalidInput.InvalidInput.onField(
          "immediatelyExecute",
          "is not taken from an EMBEDDED_WALLET: the owner's device signs the execution (paymentInstructions.payloadToSign)"
        )
      }
      const destination = PaymentParties.quoteDestinationOf(request, parties)
      const reference = fundingReferenceOf(quoteId)
      const totals = {
        totalSendingAmount: Number(priced.priced.totalSendingMinor),
        totalReceivingAmount: Number(priced.priced.totalReceivingMinor),
        feesIncluded: Number(priced.priced.feesMinor),
        platformFeesIncluded: Number(priced.priced.platformFeeMinor)
      }
      // Built from a validated request and the pricer's integers: the constructors' checks would repeat them.
      const quote = new Quote(
        {
          id: quoteId,
          status: "PENDING",
          createdAt: now,
          updatedAt: now,
          expiresAt,
          source: request.source,
          destination,
          ...(customerId === undefined ? {} : { customerId }),
          sendingCurrency: currencyOf(sendingCode),
          receivingCurrency: currencyOf(receivingCode),
          lockedCurrencySide: request.lockedCurrencySide,
          lockedCurrencyAmount: request.lockedCurrencyAmount,
          ...totals,
          exchangeRate: priced.exchangeRate,
          transactionId,
          paymentInstructions: realtime
            ? yield* funding.instructionsFor({
                platformId: platform.id,
                quoteId,
                currency: sendingCode,
                amountMinor: priced.priced.totalSendingMinor,
                reference,
                expiresAt
              })
            : wallet
              ? [
                  WalletPayload.instructions(
                    WalletPayload.payloadToSign({
                      quoteId,
                      accountId: request.source.sourceType === "ACCOUNT" ? request.source.accountId : "",
                      sendingCurrency: sendingCode,
                      totalSendingAmount: totals.totalSendingAmount,
                      receivingCurrency: receivingCode,
                      totalReceivingAmount: totals.totalReceivingAmount,
                      destination,
                      expiresAt
                    })
                  )
                ]
              : [],
          rateDetails: priced.rateDetails,
          ...(request.description === undefined ? {} : { description: request.description }),
          ...(request.purposeOfPayment === undefined ? {} : { purposeOfPayment: request.purposeOfPayment }),
          ...(request.remittanceInformation === undefined
            ? {}
            : { remittanceInformation: request.remittanceInformation }),
          ...(request.lookupId === undefined ? {} : { lookupId: request.lookupId }),
          ...Option.match(parties.counterpartyInformation, {
            onNone: () => ({}),
            onSome: (counterpartyInformation) => ({ counterpartyInformation })
          }),
          ...(options.agentId === undefined ? {} : { agentId: options.agentId })
        },
        { disableValidation: true }
      )
      // Money coming in for the customer (a pull, or a payer funding an internal account) is INCOMING.
      const incoming = parties.source._tag === "Pull" || (realtime && parties.destination._tag === "Internal")
      const transaction = new Transaction(
        {
          id: transactionId,
          status: "PENDING",
          ...(incoming
            ? {
                type: "INCOMING" as const,
                direction: parties.source._tag === "Pull" ? ("DEBIT" as const) : ("CREDIT" as const)
              }
            : { type: "OUTGOING" as const, direction: "DEBIT" as const }),
          source:
            request.source.sourceType === "ACCOUNT"
              ? { sourceType: "ACCOUNT", accountId: request.source.accountId, currency: sendingCode }
              : {
                  sourceType: "REALTIME_FUNDING",
                  currency: sendingCode,
                  ...(customerId === undefined ? {} : { customerId })
                },
          destination: PaymentParties.transactionDestinationOf(request, parties),
          customerId: customerId ?? platform.id,
          ...(platformCustomerId === undefined ? {} : { platformCustomerId }),
          sentAmount: { amount: totals.totalSendingAmount, currency: quote.sendingCurrency },
          receivedAmount: { amount: totals.totalReceivingAmount, currency: quote.receivingCurrency },
          fees: totals.feesIncluded,
          platformFees: totals.platformFeesIncluded,
          exchangeRate: priced.exchangeRate,
          ...(incoming ? {} : { rateDetails: priced.rateDetails }),
          quoteId,
          ...(request.description === undefined ? {} : { description: request.description }),
          ...(rail === "INTERNAL" ? {} : { paymentRail: rail }),
          ...(realtime ? { reconciliationInstructions: { reference } } : {}),
          ...(quote.counterpartyInformation === undefined
            ? {}
            : { counterpartyInformation: quote.counterpartyInformation }),
          ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
          createdAt: now,
          updatedAt: now
        },
        { disableValidation: true }
      )
      return yield* store.transaction(
        Effect.gen(function* () {
          yield* quotes.insert(platform.id, quote)
          yield* transactions.insert(platform.id, { transaction, postingId: Option.none() })
          yield* jobs.enqueue(QuoteExpiryJob.newJob(platform.id, quoteId, expiresAt))
          // A real-time funded quote that needs strong customer authentication waits for it from the start (the
          // reference's 202), its payment instructions withheld until it is authorized (`executeAuthorized`).
          if (realtime) {
            const challenge = yield* gate.challengeFor(platform, quote)
            if (Option.isSome(challenge)) {
              const withheld = new Quote({ ...quote, paymentInstructions: [] }, { disableValidation: true })
              return (yield* holdForAuthorization(platform, withheld, challenge.value, now)).quote
            }
          }
          // A quote just made cannot have expired: its lifetime is minutes.
          return request.immediatelyExecute === true
            ? (yield* executeWithin(platform, quote, { funding: false, purpose: options.purpose }).pipe(
                Effect.catchTag("QuoteExpired", Effect.die)
              )).quote
            : quote
        })
      )
    })

    const receiveFunding = Effect.fn("Quotes.receiveFunding")(function* (
      platform: Platform.Platform,
      received: {
        readonly quoteId: QuoteId
        readonly currencyCode: string
        readonly amountMinor: Option.Option<bigint>
      }
    ) {
      return yield* store.transaction(
        Effect.gen(function* () {
          const quote = yield* find(platform, received.quoteId)
          if (quote.source.sourceType !== "REALTIME_FUNDING") {
            return yield* QuoteTransitionRefused.of(quote.id, quote.status, "FUNDING")
          }
          if (received.currencyCode !== quote.sendingCurrency.code) {
            return yield* InvalidInput.InvalidInput.withErrors([
              new FieldError.FieldError({
                field: "currencyCode",
                constraint: { enum: [quote.sendingCurrency.code] },
                message: "must be the quote's sending currency"
              })
            ])
          }
          const amount = Option.getOrElse(received.amountMinor, () => BigInt(quote.totalSendingAmount))
          if (amount === BigInt(quote.totalSendingAmount)) {
            return (yield* executeWithin(platform, quote, { funding: true, purpose: "QUOTE" })).transaction
          }
          return yield* mismatch(platform, quote)
        })
      )
    })

    // The payer sent another amount than quoted: the quote and its transaction fail and the money goes back.
    const mismatch = (platform: Platform.Platform, quote: Quote) =>
      Effect.gen(function* () {
        const now = yield* DateTime.now
        if (quote.status === "EXPIRED" || DateTime.greaterThanOrEqualTo(now, quote.expiresAt)) {
          return yield* QuoteExpired.of(quote.id, DateTime.formatIso(quote.expiresAt))
        }
        const status = yield* Either.match(QuoteState.transition(quote.id, quote.status, "FAIL"), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        if (
          !(yield* quotes.transition(
            platform.id,
            quote.id,
            quote.status,
            new Quote({ ...quote, status, updatedAt: now }, { disableValidation: true })
          ))
        ) {
          return yield* QuoteTransitionRefused.of(quote.id, "FAILED", "FAIL")
        }
        const stored = yield* transactionOf(platform, quote)
        const next = new Transaction(
          {
            ...stored.transaction,
            status: "FAILED",
            failureReason: "FUNDING_AMOUNT_MISMATCH",
            refund: {
              reference: `Refund:${stored.transaction.id}`,
              initiatedAt: now,
              settledAt: now,
              status: "COMPLETED",
              reason: "TRANSACTION_FAILED"
            },
            updatedAt: now
          },
          { disableValidation: true }
        )
        if (
          !(yield* transactions.transition(platform.id, next.id, stored.transaction.status, {
            ...stored,
            transaction: next
          }))
        ) {
          return yield* Effect.dieMessage(`transaction ${next.id} changed while its quote failed`)
        }
        yield* outbox.append(yield* event(platform.id, next))
        return next
      })

    return {
      create,
      receiveFunding,
      get: Effect.fn("Quotes.get")(function* (platform: Platform.Platform, id: QuoteId) {
        return yield* find(platform, id)
      }),
      list: (platform, filter, page) => quotes.list(platform.id, filter, page),
      execute: Effect.fn("Quotes.execute")(function* (
        platform: Platform.Platform,
        id: QuoteId,
        options: { readonly walletSigned: boolean; readonly read?: Quote | undefined } = { walletSigned: false }
      ) {
        const read = options.read
        return yield* store.transaction(
          Effect.gen(function* () {
            const quote = read !== undefined && read.id === id ? read : yield* find(platform, id)
            if (Option.isSome(WalletPayload.of(quote)) && !options.walletSigned) {
              return yield* WalletErrors.WalletSignatureMissing.of()
            }
            return (yield* executeWithin(platform, quote, { funding: false, purpose: "QUOTE" })).quote
          })
        )
      }),
      executeAuthorized: Effect.fn("Quotes.executeAuthorized")(function* (platform: Platform.Platform, id: QuoteId) {
        return yield* store.transaction(
          Effect.gen(function* () {
            const quote = yield* find(platform, id)
            if (quote.source.sourceType === "REALTIME_FUNDING") return yield* releaseForFunding(platform, quote)
            return (yield* executeWithin(platform, quote, { funding: false, purpose: "QUOTE", authorized: true })).quote
          })
        )
      })
    }
  })
)
