import { DateTime, Effect, Option } from "effect"
import type { ExternalAccountRepo, InternalAccountRepo } from "../accounts/index.js"
import type { CustomerRepo } from "../customers/index.js"
import { InvalidInput, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { SelfPayment } from "./PaymentErrors.js"
import { InvalidCurrency } from "./PricingErrors.js"
import type { UmaDestinationRequest } from "./QuoteRequest.js"
import * as UmaAddressInput from "./UmaAddressInput.js"
import { LookupNotFound, MissingMandatoryUserInfo, type InvalidUmaAddress, type UmaNotFound } from "./UmaErrors.js"
import { type LookupId, missingPayerData, type UmaLookup } from "./UmaLookup.js"
import { UmaLookupRepo } from "./UmaLookupRepo.js"
import * as UmaReceivers from "./UmaReceivers.js"

/**
 * Where an UMA destination pays, once its lookup is checked: a customer of the platform (an address on its own
 * domain) through that customer's deposit account `accountId`, or a counterparty elsewhere over the `UMA` rail.
 * `umaAddress` is normalized (see `UmaAddressInput`).
 */
export type UmaDestination =
  | {
      readonly _tag: "Own"
      readonly umaAddress: string
      readonly currency: string
      readonly accountId: string
      readonly customerId: string
    }
  | {
      readonly _tag: "Foreign"
      readonly umaAddress: string
      readonly currency: string
      /** The payee data the counterparty returned with the lookup, if any. */
      readonly counterpartyInformation: UmaLookup["counterpartyInformation"]
    }

/** What a quote request says about its receiver lookup, and who pays (the source's customer, if any). */
export interface LookupUse {
  readonly lookupId: LookupId | undefined
  readonly senderCustomerInfo: { readonly [field: string]: unknown } | undefined
  readonly payer: Option.Option<string>
}

type Requirements =
  | UmaLookupRepo
  | CustomerRepo.CustomerRepo
  | InternalAccountRepo.InternalAccountRepo
  | ExternalAccountRepo.ExternalAccountRepo

const invalid = InvalidInput.InvalidInput.onField

/**
 * The lookup a quote names, checked for its use: it exists on the platform (`LOOKUP_REQUEST_NOT_FOUND`, 404), has
 * not expired, was made for the paying customer when it named one (`INVALID_INPUT` on `lookupId` otherwise), and
 * `senderCustomerInfo` carries every mandatory payer field it lists (`MISSING_MANDATORY_USER_INFO`).
 */
export const usableLookup = (
  platform: Platform.Platform,
  lookupId: LookupId,
  use: LookupUse
): Effect.Effect<
  UmaLookup,
  LookupNotFound | InvalidInput.InvalidInput | MissingMandatoryUserInfo | StoreFailure.StoreFailure,
  UmaLookupRepo
> =>
  Effect.gen(function* () {
    const found = yield* Effect.flatMap(UmaLookupRepo, (repo) => repo.findById(platform.id, lookupId))
    if (Option.isNone(found)) return yield* LookupNotFound.of(lookupId)
    const lookup = found.value
    if (DateTime.greaterThanOrEqualTo(yield* DateTime.now, lookup.expiresAt)) {
      return yield* invalid("lookupId", "has expired: look the receiver up again")
    }
    if (lookup.customerId !== undefined && !Option.contains(use.payer, lookup.customerId)) {
      return yield* invalid("lookupId", "was made for another sending customer")
    }
    const missing = missingPayerData(lookup, use.senderCustomerInfo)
    if (missing.length > 0) return yield* MissingMandatoryUserInfo.of(lookup.id, missing)
    return lookup
  })

/**
 * Checks the lookup an account destination names, if any: a lookup of that external account (`INVALID_INPUT` on
 * `lookupId` for any other), usable as `usableLookup` says.
 */
export const checkAccountLookup = (platform: Platform.Platform, accountId: string, use: LookupUse) =>
  Effect.gen(function* () {
    if (use.lookupId === undefined) return
    const lookup = yield* usableLookup(platform, use.lookupId, use)
    if (lookup.receiver._tag !== "ExternalAccount" || lookup.receiver.accountId !== accountId) {
      return yield* invalid("lookupId", "was made for another receiver than destination.accountId")
    }
  })

/**
 * Resolves an UMA destination: `lookupId` is required (`INVALID_INPUT`), the address must be well-formed
 * (`INVALID_UMA_ADDRESS`) and the one the lookup was made for (`INVALID_INPUT` on `lookupId`), and the lookup usable
 * (`usableLookup`). The currency is `destination.currency` or the lookup's first; one the receiver does not accept is
 * `INVALID_CURRENCY`. An address on the platform's own domain is its customer (`UMA_NOT_FOUND` if no longer), paid
 * through the deposit account of that currency; a customer paying its own address is `SELF_PAYMENT`.
 */
export const resolve = (
  platform: Platform.Platform,
  destination: UmaDestinationRequest,
  use: LookupUse
): Effect.Effect<
  UmaDestination,
  | InvalidInput.InvalidInput
  | InvalidUmaAddress
  | LookupNotFound
  | MissingMandatoryUserInfo
  | InvalidCurrency
  | UmaNotFound
  | SelfPayment
  | StoreFailure.StoreFailure,
  Requirements
> =>
  Effect.gen(function* () {
    if (use.lookupId === undefined) {
      return yield* invalid(
        "lookupId",
        "is required with an UMA_ADDRESS destination: look the receiver up with GET /receiver/uma/{receiverUmaAddress}"
      )
    }
    const address = yield* UmaAddressInput.parse("destination.umaAddress", destination.umaAddress)
    const lookup = yield* usableLookup(platform, use.lookupId, use)
    if (lookup.receiver._tag !== "UmaAddress" || lookup.receiver.umaAddress !== address) {
      return yield* invalid("lookupId", "was made for another receiver than destination.umaAddress")
    }
    const accepted = lookup.supportedCurrencies.map((entry) => entry.currency.code)
    const currency = destination.currency ?? accepted[0]
    if (currency === undefined || !accepted.includes(currency)) {
      return yield* InvalidCurrency.of(currency ?? "", "currency_not_accepted_by_receiver")
    }
    if (!UmaAddressInput.isOwnDomain(platform, address)) {
      return {
        _tag: "Foreign",
        umaAddress: address,
        currency,
        counterpartyInformation: lookup.counterpartyInformation
      } satisfies UmaDestination
    }
    const receiver = yield* UmaReceivers.ownReceiver(platform, address)
    const accountId = UmaReceivers.depositAccountOf(receiver, currency)
    if (Option.contains(use.payer, receiver.customer.id)) {
      return yield* SelfPayment.of(Option.getOrElse(accountId, () => address))
    }
    if (Option.isNone(accountId)) return yield* InvalidCurrency.of(currency, "currency_not_accepted_by_receiver")
    return {
      _tag: "Own",
      umaAddress: address,
      currency,
      accountId: accountId.value,
      customerId: receiver.customer.id
    } satisfies UmaDestination
  })
