import { Effect, Option } from "effect"
import {
  AccountErrors,
  type ExternalAccount,
  ExternalAccountRepo,
  type InternalAccount,
  InternalAccountRepo
} from "../accounts/index.js"
import { CustomerRepo } from "../customers/index.js"
import type { Customer } from "../customers/index.js"
import { InvalidInput, type JsonObject } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import * as OwnershipThreshold from "./OwnershipThreshold.js"
import { SelfPayment } from "./PaymentErrors.js"
import { isInternalAccountId } from "./PaymentPosting.js"
import { isPullable, railOf } from "./QuoteLifetime.js"
import type { QuoteDestination } from "./Quote.js"
import type { AccountDestinationRequest, QuoteDestinationRequest, QuoteSourceRequest } from "./QuoteRequest.js"
import type { TransactionDestination } from "./Transaction.js"
import * as UmaDestinations from "./UmaDestinations.js"
import type { LookupId } from "./UmaLookup.js"

/** Where a payment's money comes from, with what the service needs of it. */
export type Source =
  | { readonly _tag: "Internal"; readonly account: InternalAccount.InternalAccount; readonly currency: string }
  | { readonly _tag: "Pull"; readonly account: ExternalAccount.ExternalAccount; readonly currency: string }
  | { readonly _tag: "RealtimeFunding"; readonly currency: string }

/**
 * Where a payment's money goes: an internal account (no rail), an external account paid out on `rail`, or an UMA
 * address of another domain paid over the `UMA` rail.
 */
export type Destination =
  | { readonly _tag: "Internal"; readonly account: InternalAccount.InternalAccount; readonly currency: string }
  | {
      readonly _tag: "Payout"
      readonly account: ExternalAccount.ExternalAccount
      readonly currency: string
      readonly rail: string
    }
  | { readonly _tag: "Uma"; readonly umaAddress: string; readonly currency: string; readonly rail: "UMA" }

/**
 * Both ends of a payment and the customer it belongs to (absent for the platform's own accounts). `umaAddress` is
 * the normalized address of an UMA destination: for one on the platform's own domain, `destination` is the
 * receiving customer's deposit account. `counterpartyInformation` is the payee data an UMA counterparty of another
 * domain returned (its `receiverCustomerInfo`), for the quote and the transaction.
 */
export interface Parties {
  readonly source: Source
  readonly destination: Destination
  readonly customerId: Option.Option<string>
  readonly umaAddress: Option.Option<string>
  readonly counterpartyInformation: Option.Option<JsonObject.JsonObject>
}

/** What a quote request says of its parties. */
export interface PartiesRequest {
  readonly source: QuoteSourceRequest
  readonly destination: QuoteDestinationRequest
  readonly lookupId?: LookupId | undefined
  readonly senderCustomerInfo?: { readonly [field: string]: unknown } | undefined
}

const invalid = InvalidInput.InvalidInput.onField

const internalAccount = (platformId: Platform.PlatformId, accountId: string) =>
  Effect.flatMap(InternalAccountRepo.InternalAccountRepo, (repo) =>
    repo.findById(platformId, accountId as InternalAccount.InternalAccountId)
  ).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(AccountErrors.InternalAccountNotFound.of(accountId)),
        onSome: Effect.succeed
      })
    )
  )

const externalAccount = (platformId: Platform.PlatformId, accountId: string) =>
  Effect.flatMap(ExternalAccountRepo.ExternalAccountRepo, (repo) =>
    repo.findById(platformId, accountId as ExternalAccount.ExternalAccountId)
  ).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(AccountErrors.ExternalAccountNotFound.of(accountId)),
        onSome: Effect.succeed
      })
    )
  )

const resolveSource = (platform: Platform.Platform, source: QuoteSourceRequest) =>
  Effect.gen(function* () {
    if (source.sourceType === "REALTIME_FUNDING") {
      return { _tag: "RealtimeFunding", currency: source.currency } as const satisfies Source
    }
    if (isInternalAccountId(source.accountId)) {
      const account = yield* internalAccount(platform.id, source.accountId)
      if (account.status !== "ACTIVE") return yield* invalid("source.accountId", "must be an active account")
      return { _tag: "Internal", account, currency: account.currency } as const satisfies Source
    }
    const account = yield* externalAccount(platform.id, source.accountId)
    if (account.status !== "ACTIVE") return yield* invalid("source.accountId", "must be an active account")
    if (!isPullable(account.accountInfo)) {
      return yield* invalid(
        "source.accountId",
        "must be an internal account or an external account that can be pulled (ACH)"
      )
    }
    return { _tag: "Pull", account, currency: account.currency } as const satisfies Source
  })

const resolveDestination = (platform: Platform.Platform, destination: AccountDestinationRequest) =>
  Effect.gen(function* () {
    if (isInternalAccountId(destination.accountId)) {
      const account = yield* internalAccount(platform.id, destination.accountId)
      if (account.status !== "ACTIVE") return yield* invalid("destination.accountId", "must be an active account")
      if (destination.paymentRail !== undefined) {
        return yield* invalid("destination.paymentRail", "is not taken for an internal account")
      }
      return { _tag: "Internal", account, currency: account.currency } as const satisfies Destination
    }
    const account = yield* externalAccount(platform.id, destination.accountId)
    // An account whose ownership is not verified receives up to a threshold, checked once the quote is priced.
    if (account.status !== "ACTIVE" && !OwnershipThreshold.unverified(account.status))
      return yield* invalid("destination.accountId", "must be an active account")
    const rail = yield* railOf(account.accountInfo, destination.paymentRail)
    return { _tag: "Payout", account, currency: account.currency, rail } as const satisfies Destination
  })

const ownerOf = (party: Source | Destination): Option.Option<string> =>
  party._tag === "RealtimeFunding" || party._tag === "Uma"
    ? Option.none()
    : Option.fromNullable(party.account.customerId)

// The destination of the request, with the UMA address it was named by; an UMA destination on the platform's own
// domain becomes its customer's deposit account, and a lookup named with an account destination is checked.
const resolveAnyDestination = (platform: Platform.Platform, request: PartiesRequest, source: Source) =>
  Effect.gen(function* () {
    const use = {
      lookupId: request.lookupId,
      senderCustomerInfo: request.senderCustomerInfo,
      payer: Option.orElse(ownerOf(source), () => Option.fromNullable(request.source.customerId))
    }
    if (request.destination.destinationType === "ACCOUNT") {
      const destination = yield* resolveDestination(platform, request.destination)
      yield* UmaDestinations.checkAccountLookup(platform, request.destination.accountId, use)
      return { destination, umaAddress: Option.none<string>(), counterpartyInformation: Option.none() }
    }
    const uma = yield* UmaDestinations.resolve(platform, request.destination, use)
    if (uma._tag === "Foreign") {
      const destination: Destination = { _tag: "Uma", umaAddress: uma.umaAddress, currency: uma.currency, rail: "UMA" }
      return {
        destination,
        umaAddress: Option.some(uma.umaAddress),
        counterpartyInformation: Option.fromNullable(uma.counterpartyInformation)
      }
    }
    if (request.source.sourceType === "ACCOUNT" && request.source.accountId === uma.accountId) {
      return yield* SelfPayment.of(uma.accountId)
    }
    const destination = yield* resolveDestination(platform, { destinationType: "ACCOUNT", accountId: uma.accountId })
    return { destination, umaAddress: Option.some(uma.umaAddress), counterpartyInformation: Option.none() }
  })

/**
 * The quote's `destination` as stored and shown: the request's account destination as given, or the UMA address
 * (normalized) with its receiving currency and, on the platform's own domain, the account it pays.
 */
export const quoteDestinationOf = (request: PartiesRequest, parties: Parties): QuoteDestination => {
  const destination = request.destination
  if (destination.destinationType === "ACCOUNT") return destination
  return {
    destinationType: "UMA_ADDRESS",
    umaAddress: Option.getOrElse(parties.umaAddress, () => destination.umaAddress),
    currency: parties.destination.currency,
    ...(parties.destination._tag === "Uma" ? {} : { accountId: parties.destination.account.id })
  }
}

/** The transaction's `destination`: the account, or the (normalized) UMA address, with the receiving currency. */
export const transactionDestinationOf = (request: PartiesRequest, parties: Parties): TransactionDestination => {
  const destination = request.destination
  const currency = parties.destination.currency
  if (destination.destinationType === "ACCOUNT") {
    return { destinationType: "ACCOUNT", accountId: destination.accountId, currency }
  }
  const umaAddress = Option.getOrElse(parties.umaAddress, () => destination.umaAddress)
  return { destinationType: "UMA_ADDRESS", umaAddress, currency }
}

/**
 * Resolves a quote request's source and destination on the platform: each account must exist there (404 otherwise)
 * and be active (an external destination may also await ownership verification: `OwnershipThreshold` limits what it
 * receives); a pulled source must be pullable; one account cannot pay itself (`SELF_PAYMENT`); a pulled source pays
 * an internal account only. An UMA destination needs its receiver lookup (`UmaDestinations.resolve`). The payment's
 * customer is the source account's owner, else the destination's, else the real-time funding's `customerId`; a
 * `customerId` given with the source must match its account's owner.
 */
export const resolve = (platform: Platform.Platform, request: PartiesRequest) =>
  Effect.gen(function* () {
    if (
      request.source.sourceType === "ACCOUNT" &&
      request.destination.destinationType === "ACCOUNT" &&
      request.source.accountId === request.destination.accountId
    ) {
      return yield* SelfPayment.of(request.destination.accountId)
    }
    const source = yield* resolveSource(platform, request.source)
    const { counterpartyInformation, destination, umaAddress } = yield* resolveAnyDestination(platform, request, source)
    if (source._tag === "Pull" && destination._tag !== "Internal") {
      return yield* invalid(
        "destination.accountId",
        "money pulled from an external account goes to an internal account"
      )
    }
    const named = request.source.customerId
    if (named !== undefined && source._tag !== "RealtimeFunding" && source.account.customerId !== named) {
      return yield* invalid("source.customerId", "must be the owner of the source account")
    }
    if (named !== undefined && source._tag === "RealtimeFunding") {
      const found = yield* Effect.flatMap(CustomerRepo.CustomerRepo, (repo) =>
        repo.findById(platform.id, named as Customer.CustomerId)
      )
      if (Option.isNone(found)) return yield* invalid("source.customerId", "must be a customer of the platform")
    }
    const customerId = Option.orElse(ownerOf(source), () =>
      Option.orElse(ownerOf(destination), () => Option.fromNullable(named))
    )
    return { source, destination, customerId, umaAddress, counterpartyInformation } satisfies Parties
  })

/** The repositories `resolve` reads: what a service that resolves parties takes from its layer's context. */
export type Requirements = Effect.Effect.Context<ReturnType<typeof resolve>>
