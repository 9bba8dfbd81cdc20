import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema, TestClock } from "effect"
import {
  AccountInfoExamples,
  Customers,
  Domain,
  ExternalAccountRequest,
  ExternalAccounts,
  Ids,
  InternalAccounts,
  Platform,
  Platforms,
  UmaDestinations,
  UmaLookup,
  UmaLookups
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layerDeterministic)
)

const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  umaDomain: "pay.example",
  supportedCurrencies: [
    new Platform.SupportedCurrency({
      currencyCode: "EUR",
      minAmount: 100,
      maxAmount: 500_000,
      requiredCounterpartyFields: [{ name: "FULL_NAME", mandatory: false }]
    }),
    new Platform.SupportedCurrency({
      currencyCode: "USD",
      minAmount: 1,
      maxAmount: 1_000_000,
      requiredCounterpartyFields: [
        { name: "FULL_NAME", mandatory: true },
        { name: "EMAIL", mandatory: false }
      ]
    })
  ]
})

// A sandbox platform on `pay.example` and a customer, with its UMA address and internal accounts by currency.
const setUp = Effect.gen(function* () {
  yield* TestClock.setTime(Date.UTC(2026, 4, 1, 12))
  const platform = yield* Effect.flatMap(Platforms.Platforms, (platforms) =>
    platforms.create({ name: "UMA", environment: "SANDBOX", config })
  )
  const customers = yield* Customers.Customers
  const newCustomer = (fullName: string) =>
    Effect.gen(function* () {
      const customer = yield* customers.create(platform, { customerType: "INDIVIDUAL", fullName })
      const page = yield* (yield* InternalAccounts.InternalAccounts).list(
        platform,
        { owner: "customers", customerId: customer.id },
        { limit: 100, after: Option.none() }
      )
      const accounts = Object.fromEntries(page.data.map((account) => [account.balance.currency.code, account.id]))
      return { customer, accounts, address: customer.umaAddress! }
    })
  return { platform, newCustomer }
})

const resolve = (
  platform: Platform.Platform,
  lookupId: UmaLookup.LookupId | undefined,
  umaAddress: string,
  options: { readonly currency?: string; readonly info?: Record<string, unknown>; readonly payer?: string } = {}
) =>
  UmaDestinations.resolve(
    platform,
    {
      destinationType: "UMA_ADDRESS",
      umaAddress,
      ...(options.currency === undefined ? {} : { currency: options.currency })
    },
    { lookupId, senderCustomerInfo: options.info, payer: Option.fromNullable(options.payer) }
  )

describe("UMA lookups and destinations", () => {
  it.effect("looks up a customer of the platform: currencies in the platform's order, its payer data, 15 minutes", () =>
    Effect.gen(function* () {
      const { platform, newCustomer } = yield* setUp
      const bob = yield* newCustomer("Bob Lee")
      const lookups = yield* UmaLookups.UmaLookups
      const lookup = yield* lookups.lookupAddress(platform, bob.address.slice(1).toUpperCase(), {})
      expect(lookup.receiver).toEqual({ _tag: "UmaAddress", umaAddress: bob.address })
      expect(lookup.supportedCurrencies.map((entry) => [entry.currency.code, entry.min, entry.max])).toEqual([
        ["EUR", 100, 500_000],
        ["USD", 1, 1_000_000]
      ])
      expect(lookup.supportedCurrencies[0]!.estimatedExchangeRate).toBe(1)
      expect(lookup.requiredPayerDataFields).toEqual([
        { name: "FULL_NAME", mandatory: true },
        { name: "EMAIL", mandatory: false }
      ])
      expect(lookup.expiresAt.epochMillis - lookup.createdAt.epochMillis).toBe(15 * 60_000)
      expect(yield* Effect.flip(lookups.lookupAddress(platform, "$nobody@pay.example", {}))).toMatchObject({
        code: "UMA_NOT_FOUND"
      })
    }).pipe(Effect.provide(services))
  )

  it.effect("resolves an own-domain address to the deposit account of the currency, a default external one first", () =>
    Effect.gen(function* () {
      const { platform, newCustomer } = yield* setUp
      const alice = yield* newCustomer("Alice Lee")
      const bob = yield* newCustomer("Bob Lee")
      const lookups = yield* UmaLookups.UmaLookups
      const lookup = yield* lookups.lookupAddress(platform, bob.address, { customerId: alice.customer.id })
      const payer = alice.customer.id
      // The lookup lists the payer's full name as mandatory (USD needs it): every quote with it must carry it.
      expect(yield* Effect.flip(resolve(platform, lookup.id, bob.address, { payer }))).toMatchObject({
        code: "MISSING_MANDATORY_USER_INFO",
        details: { missingFields: ["FULL_NAME"] }
      })
      const info = { FULL_NAME: "Alice Lee" }
      expect(yield* resolve(platform, lookup.id, bob.address, { payer, info })).toEqual({
        _tag: "Own",
        umaAddress: bob.address,
        currency: "EUR",
        accountId: bob.accounts.EUR,
        customerId: bob.customer.id
      })
      expect(yield* resolve(platform, lookup.id, bob.address, { payer, currency: "USD", info })).toMatchObject({
        accountId: bob.accounts.USD
      })
      // Made for Alice: nobody else may use it.
      expect(
        yield* Effect.flip(resolve(platform, lookup.id, bob.address, { payer: bob.customer.id, info }))
      ).toMatchObject({ code: "INVALID_INPUT" })
      expect(yield* Effect.flip(resolve(platform, lookup.id, bob.address, { info }))).toMatchObject({
        code: "INVALID_INPUT"
      })

      // Bob marks an external EUR account as his default UMA deposit account: every UMA payment goes there.
      const request = Schema.decodeUnknownSync(ExternalAccountRequest.CreateExternalAccountRequest)({
        currency: "EUR",
        defaultUmaDepositAccount: true,
        accountInfo: AccountInfoExamples.exampleOf("EUR_ACCOUNT")
      })
      const deposit = yield* (yield* ExternalAccounts.ExternalAccounts).create(
        platform,
        Option.some(bob.customer.id),
        request
      )
      const later = yield* lookups.lookupAddress(platform, bob.address, {})
      expect(later.supportedCurrencies.map((entry) => entry.currency.code)).toEqual(["EUR"])
      expect(later.requiredPayerDataFields).toEqual([{ name: "FULL_NAME", mandatory: false }])
      expect(yield* resolve(platform, later.id, bob.address, { payer })).toMatchObject({ accountId: deposit.id })
      expect(yield* Effect.flip(resolve(platform, later.id, bob.address, { payer, currency: "USD" }))).toMatchObject({
        code: "INVALID_CURRENCY",
        details: { rule: "currency_not_accepted_by_receiver" }
      })
      // Bob paying his own address.
      expect(yield* Effect.flip(resolve(platform, later.id, bob.address, { payer: bob.customer.id }))).toMatchObject({
        code: "SELF_PAYMENT"
      })
    }).pipe(Effect.provide(services))
  )

  it.effect("resolves another domain's address to the UMA rail, and refuses a lookup that expired or is missing", () =>
    Effect.gen(function* () {
      const { platform } = yield* setUp
      const lookups = yield* UmaLookups.UmaLookups
      const address = "$success.usd@sandbox.uma.money"
      const lookup = yield* lookups.lookupAddress(platform, address, { senderUmaAddress: "Me@Pay.Example" })
      expect(lookup.senderUmaAddress).toBe("$me@pay.example")
      expect(yield* resolve(platform, lookup.id, address)).toEqual({
        _tag: "Foreign",
        umaAddress: address,
        currency: "USD",
        counterpartyInformation: { FULL_NAME: "Sandbox Receiver SUCCESS" }
      })
      expect(yield* Effect.flip(resolve(platform, undefined, address))).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [{ field: "lookupId" }] }
      })
      expect(yield* Effect.flip(resolve(platform, lookup.id, "$success.eur@sandbox.uma.money"))).toMatchObject({
        code: "INVALID_INPUT"
      })
      yield* TestClock.adjust("15 minutes")
      expect(yield* Effect.flip(resolve(platform, lookup.id, address))).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [{ field: "lookupId", message: "has expired: look the receiver up again" }] }
      })
    }).pipe(Effect.provide(services))
  )
})
