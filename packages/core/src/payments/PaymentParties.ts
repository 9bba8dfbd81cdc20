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
import { InvalidInput } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import * as OwnershipThreshold from "./OwnershipThreshold.js"
import { SelfPayment } from "./PaymentErrors.js"
import { isInternalAccountId } from "./PaymentPosting.js"
import { isPullable, railOf } from "./QuoteLifetime.js"
import type { QuoteDestinationRequest, QuoteSourceRequest } from "./QuoteRequest.js"

/** Where a payment's money comes from, with what the service needs of it. */
export type Source =
  | { readonly _tag: "Internal"; readonly account: InternalAccount.InternalAccount; readonly currency: string }
  | { readonly _tag: "Pull"; readonly account: ExternalAccount.ExternalAccount; readonly currency: string }
  | { readonly _tag: "RealtimeFunding"; readonly currency: string }

/** Where a payment's money goes. `rail` is `INTERNAL` for an internal account. */
export type Destination =
  | { readonly _tag: "Internal"; readonly account: InternalAccount.InternalAccount; readonly currency: string }
  | {
      readonly _tag: "Payout"
      readonly account: ExternalAccount.ExternalAccount
      readonly currency: string
      readonly rail: string
    }

/** Both ends of a payment and the customer it belongs to (absent for the platform's own accounts). */
export interface Parties {
  readonly source: Source
  readonly destination: Destination
  readonly customerId: Option.Option<string>
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
      if (account.type === "EMBEDDED_WALLET") {
        return yield* invalid(
          "source.accountId",
          "an embedded wallet pays only with a signature from the customer's device, which quotes do not take yet"
        )
      }
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

const resolveDestination = (platform: Platform.Platform, destination: QuoteDestinationRequest) =>
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
  party._tag === "RealtimeFunding" ? Option.none() : Option.fromNullable(party.account.customerId)

/**
 * Resolves a quote request's source and destination on the platform: each account must exist there (404 otherwise)
 * and be active (an external destination may also await ownership verification: `OwnershipThreshold` limits what it
 * receives); a pulled source must be pullable; one account cannot pay itself (`SELF_PAYMENT`); a pulled source pays
 * an internal account only. The payment's customer is the source account's owner, else the destination's, else
 * the real-time funding's `customerId`; a `customerId` given with the source must match its account's owner.
 */
export const resolve = (
  platform: Platform.Platform,
  request: { readonly source: QuoteSourceRequest; readonly destination: QuoteDestinationRequest }
) =>
  Effect.gen(function* () {
    if (request.source.sourceType === "ACCOUNT" && request.source.accountId === request.destination.accountId) {
      return yield* SelfPayment.of(request.destination.accountId)
    }
    const source = yield* resolveSource(platform, request.source)
    const destination = yield* resolveDestination(platform, request.destination)
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
    return { source, destination, customerId } satisfies Parties
  })
