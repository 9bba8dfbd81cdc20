import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AccountErrors, type ExternalAccount, ExternalAccountRepo, InternalAccountRepo } from "../accounts/index.js"
import { type Customer, CustomerErrors, CustomerRepo } from "../customers/index.js"
import { Ids, ResourceId, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { Pricer } from "./Pricer.js"
import type { QuoteRateUnavailable } from "./PricingErrors.js"
import * as Rate from "./Rate.js"
import * as UmaAddressInput from "./UmaAddressInput.js"
import { UmaDirectory, type UmaReceiver } from "./UmaDirectory.js"
import type { InvalidUmaAddress, UmaLookupFailed, UmaNotFound } from "./UmaErrors.js"
import { LookupId, type ReceiverCurrency, type Receiver, UmaLookup, lifetime } from "./UmaLookup.js"
import { UmaLookupRepo } from "./UmaLookupRepo.js"
import * as UmaReceivers from "./UmaReceivers.js"

/** Who asks: the sender's UMA address and the customer paying, both optional. */
export interface LookupQuery {
  readonly senderUmaAddress?: string | undefined
  readonly customerId?: Customer.CustomerId | undefined
}

type QueryError = InvalidUmaAddress | CustomerErrors.CustomerNotFound | StoreFailure.StoreFailure

/**
 * Receiver lookups (`GET /receiver/uma/{address}`, `GET /receiver/external-account/{id}`): who receives, in which
 * currencies and with which payer data, stored as an `UmaLookup` that an UMA quote must name (`lookupId`) within
 * `UmaLookup.lifetime`. An address on the platform's own `umaDomain` is one of its customers (`UMA_NOT_FOUND` if no
 * live customer has it), receiving in the currencies of its deposit accounts (`UmaReceivers`) with the platform's
 * `requiredCounterpartyFields` of them as payer data; any other address is asked of the `UmaDirectory`. Only
 * currencies the platform supports are listed, each with an indicative rate from the platform's first supported
 * currency and the platform's bounds. Writes one record; nothing else changes.
 */
export class UmaLookups extends Context.Tag("@payrail/core/UmaLookups")<
  UmaLookups,
  {
    /** Looks up an UMA address as written (`$` optional, any case): `INVALID_UMA_ADDRESS` when malformed. */
    readonly lookupAddress: (
      platform: Platform.Platform,
      receiverUmaAddress: string,
      query: LookupQuery
    ) => Effect.Effect<UmaLookup, QueryError | UmaNotFound | UmaLookupFailed | QuoteRateUnavailable>
    /** Looks up an external account of the platform (404 `NOT_FOUND` otherwise): it receives in its currency. */
    readonly lookupExternalAccount: (
      platform: Platform.Platform,
      accountId: ExternalAccount.ExternalAccountId,
      query: LookupQuery
    ) => Effect.Effect<UmaLookup, QueryError | AccountErrors.ExternalAccountNotFound | QuoteRateUnavailable>
  }
>() {}

export const layer = Layer.effect(
  UmaLookups,
  Effect.gen(function* () {
    const repo = yield* UmaLookupRepo
    const directory = yield* UmaDirectory
    const pricer = yield* Pricer
    const ids = yield* Ids.Ids
    const customers = yield* CustomerRepo.CustomerRepo
    const externalAccounts = yield* ExternalAccountRepo.ExternalAccountRepo
    const accounts = yield* Effect.context<
      CustomerRepo.CustomerRepo | InternalAccountRepo.InternalAccountRepo | ExternalAccountRepo.ExternalAccountRepo
    >()

    const checkQuery = (platform: Platform.Platform, query: LookupQuery) =>
      Effect.gen(function* () {
        const sender =
          query.senderUmaAddress === undefined
            ? Option.none()
            : Option.some(yield* UmaAddressInput.parse("senderUmaAddress", query.senderUmaAddress))
        if (query.customerId !== undefined) {
          const customer = yield* customers.findById(platform.id, query.customerId)
          if (Option.isNone(customer)) return yield* CustomerErrors.CustomerNotFound.of(query.customerId)
        }
        return sender
      })

    // The listed currencies: those the platform supports, in the receiver's order, with indicative rates.
    const currencies = (platform: Platform.Platform, codes: ReadonlyArray<string>) =>
      Effect.forEach(
        codes.filter((code) => platform.config.supportedCurrencies.some((entry) => entry.currencyCode === code)),
        (code) =>
          pricer
            .terms(platform, {
              sendingCurrency: platform.config.supportedCurrencies[0]!.currencyCode,
              receivingCurrency: code
            })
            .pipe(
              Effect.catchTag("InvalidCurrency", Effect.die),
              Effect.map((terms): ReceiverCurrency => {
                const config = platform.config.supportedCurrencies.find((entry) => entry.currencyCode === code)!
                return {
                  currency: terms.receivingCurrency,
                  estimatedExchangeRate: Rate.toNumber(terms.rate),
                  min: config.minAmount,
                  max: config.maxAmount
                }
              })
            )
      )

    const store = (
      platform: Platform.Platform,
      receiver: Receiver,
      sender: Option.Option<string>,
      query: LookupQuery,
      found: { readonly supportedCurrencies: ReadonlyArray<ReceiverCurrency> } & Pick<
        UmaLookup,
        "requiredPayerDataFields" | "counterpartyInformation"
      >
    ) =>
      Effect.gen(function* () {
        const now = yield* DateTime.now
        const lookup = new UmaLookup({
          id: LookupId.make(ResourceId.format("Lookup", yield* ids.uuid)),
          receiver,
          ...(Option.isSome(sender) ? { senderUmaAddress: sender.value } : {}),
          ...(query.customerId === undefined ? {} : { customerId: query.customerId }),
          supportedCurrencies: found.supportedCurrencies,
          requiredPayerDataFields: found.requiredPayerDataFields,
          ...(found.counterpartyInformation === undefined
            ? {}
            : { counterpartyInformation: found.counterpartyInformation }),
          createdAt: now,
          expiresAt: DateTime.addDuration(now, lifetime)
        })
        yield* repo.insert(platform.id, lookup)
        return lookup
      })

    return {
      lookupAddress: Effect.fn("UmaLookups.lookupAddress")(function* (
        platform: Platform.Platform,
        receiverUmaAddress: string,
        query: LookupQuery
      ) {
        const address = yield* UmaAddressInput.parse("receiverUmaAddress", receiverUmaAddress)
        const sender = yield* checkQuery(platform, query)
        const receiver: UmaReceiver = UmaAddressInput.isOwnDomain(platform, address)
          ? yield* Effect.map(UmaReceivers.ownReceiver(platform, address), (own) => {
              const codes = UmaReceivers.currenciesOf(platform, own)
              return { currencies: codes, requiredPayerDataFields: UmaReceivers.payerDataOf(platform, codes) }
            }).pipe(Effect.provide(accounts))
          : yield* directory.receiver({ platform, receiver: address, sender })
        return yield* store(platform, { _tag: "UmaAddress", umaAddress: address }, sender, query, {
          supportedCurrencies: yield* currencies(platform, receiver.currencies),
          requiredPayerDataFields: receiver.requiredPayerDataFields,
          counterpartyInformation: receiver.receiverCustomerInfo
        })
      }),
      lookupExternalAccount: Effect.fn("UmaLookups.lookupExternalAccount")(function* (
        platform: Platform.Platform,
        accountId: ExternalAccount.ExternalAccountId,
        query: LookupQuery
      ) {
        const account = yield* externalAccounts.findById(platform.id, accountId)
        if (Option.isNone(account)) return yield* AccountErrors.ExternalAccountNotFound.of(accountId)
        const sender = yield* checkQuery(platform, query)
        return yield* store(platform, { _tag: "ExternalAccount", accountId }, sender, query, {
          supportedCurrencies: yield* currencies(platform, [account.value.currency]),
          requiredPayerDataFields: [],
          counterpartyInformation: undefined
        })
      })
    }
  })
)
