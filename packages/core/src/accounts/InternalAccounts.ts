import { Context, DateTime, Effect, Layer, Option } from "effect"
import * as AccountPlan from "./AccountPlan.js"
import { AuthMethod, AuthMethodId } from "./AuthMethod.js"
import { AuthMethodRepo } from "./AuthMethodRepo.js"
import { InternalAccountNotFound } from "./AccountErrors.js"
import { InternalAccount, InternalAccountId, type InternalAccountView } from "./InternalAccount.js"
import { type InternalAccountFilter, InternalAccountRepo } from "./InternalAccountRepo.js"
import { Currency, Ids, Money, Page, ResourceId, type StoreFailure } from "../kernel/index.js"
import type { Customer } from "../customers/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"

/** Internal accounts: opening them for customers and platforms, and reading them with their ledger balances. */
export class InternalAccounts extends Context.Tag("@payrail/core/InternalAccounts")<
  InternalAccounts,
  {
    /**
     * Opens the accounts a new customer gets (one per supported currency; an `EMBEDDED_WALLET` for the platform
     * stablecoin, starting with one `EMAIL_OTP` credential tied to the customer's email when there is one). Call it
     * inside the customer's unit of work, so the customer never exists without its accounts.
     */
    readonly openForCustomer: (
      platform: Platform.Platform,
      customer: Customer.Customer
    ) => Effect.Effect<ReadonlyArray<InternalAccount>, StoreFailure.StoreFailure>
    /**
     * Opens the accounts of many new customers as `openForCustomer` of each would, in one statement per table
     * whatever their number (a bulk import's batch). Call it inside the customers' unit of work.
     */
    readonly openForCustomers: (
      platform: Platform.Platform,
      customers: ReadonlyArray<Customer.Customer>
    ) => Effect.Effect<ReadonlyArray<InternalAccount>, StoreFailure.StoreFailure>
    /** Opens the platform's own accounts (one per supported currency); call it inside the platform's unit of work. */
    readonly openForPlatform: (
      platform: Platform.Platform
    ) => Effect.Effect<ReadonlyArray<InternalAccount>, StoreFailure.StoreFailure>
    readonly get: (
      platform: Platform.Platform,
      id: InternalAccountId
    ) => Effect.Effect<InternalAccountView, InternalAccountNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: InternalAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<InternalAccountView>, StoreFailure.StoreFailure>
  }
>() {}

const amountOf = (amountMinor: bigint, currencyCode: string): Money.CurrencyAmount => ({
  amount: Money.toWire(amountMinor),
  currency: Option.getOrThrowWith(Currency.find(currencyCode), () => new Error(`unknown currency ${currencyCode}`))
})

/** The API view of an account: its record with available and total balances from the ledger. */
export const toView = (account: InternalAccount, balance: Ledger.Balance): InternalAccountView => ({
  id: account.id,
  ...(account.customerId === undefined ? {} : { customerId: account.customerId }),
  type: account.type,
  status: account.status,
  balance: amountOf(Ledger.available(balance), account.currency),
  totalBalance: amountOf(balance.postedMinor, account.currency),
  fundingPaymentInstructions: [],
  ...(account.privateEnabled === undefined ? {} : { privateEnabled: account.privateEnabled }),
  createdAt: account.createdAt,
  updatedAt: account.updatedAt
})

export const layer = Layer.effect(
  InternalAccounts,
  Effect.gen(function* () {
    const repo = yield* InternalAccountRepo
    const authMethods = yield* AuthMethodRepo
    const ledger = yield* Ledger.Ledger
    const ids = yield* Ids.Ids

    // The records one owner (a customer, or the platform itself when undefined) gets: its accounts and, for a
    // customer with an email, the EMAIL_OTP credential of its embedded wallet.
    const recordsOf = (platform: Platform.Platform, owner: Customer.Customer | undefined, now: DateTime.Utc) =>
      Effect.gen(function* () {
        const planned = AccountPlan.plan(platform, owner === undefined ? "platform" : "customer")
        const accounts = yield* Effect.forEach(planned, ({ currency, type }) =>
          Effect.map(
            ids.uuid,
            (uuid) =>
              new InternalAccount({
                id: InternalAccountId.make(ResourceId.format("InternalAccount", uuid)),
                ...(owner === undefined ? {} : { customerId: owner.id }),
                type,
                currency: currency as InternalAccount["currency"],
                status: "ACTIVE",
                ...(type === "EMBEDDED_WALLET" ? { privateEnabled: false } : {}),
                createdAt: now,
                updatedAt: now
              })
          )
        )
        const email = owner?.email
        const wallets = accounts.filter((account) => account.type === "EMBEDDED_WALLET")
        const methods =
          email === undefined
            ? []
            : yield* Effect.forEach(wallets, (account) =>
                Effect.map(
                  ids.uuid,
                  (uuid) =>
                    new AuthMethod({
                      id: AuthMethodId.make(ResourceId.format("AuthMethod", uuid)),
                      accountId: account.id,
                      type: "EMAIL_OTP",
                      nickname: email,
                      createdAt: now,
                      updatedAt: now
                    })
                )
              )
        return { accounts, methods }
      })

    // Ledger accounts of internal accounts are guarded: their available balance never goes below zero. Each table
    // gets its rows in one statement, however many owners and accounts.
    const open = (platform: Platform.Platform, owners: ReadonlyArray<Customer.Customer | undefined>) =>
      Effect.gen(function* () {
        const now = yield* DateTime.now
        const records = yield* Effect.forEach(owners, (owner) => recordsOf(platform, owner, now))
        const accounts = records.flatMap((record) => record.accounts)
        yield* repo.insertAll(platform.id, accounts)
        yield* ledger
          .openAccounts(
            accounts.map((account) => SystemAccounts.guardedAccount(platform.id, account.id, account.currency))
          )
          .pipe(Effect.catchTag("InvalidPosting", Effect.die))
        yield* authMethods.insertAll(
          platform.id,
          records.flatMap((record) => record.methods)
        )
        return accounts
      })

    const view = (platform: Platform.Platform, account: InternalAccount) =>
      ledger.balance(platform.id, account.id).pipe(
        Effect.catchTag("InvalidPosting", Effect.die),
        Effect.map((balance) => toView(account, balance))
      )

    return {
      openForCustomer: (platform, customer) => open(platform, [customer]),
      openForCustomers: (platform, customers) => open(platform, customers),
      openForPlatform: (platform) => open(platform, [undefined]),
      get: (platform, id) =>
        Effect.withSpan(
          Effect.flatMap(
            repo.findById(platform.id, id),
            Option.match({
              onNone: (): Effect.Effect<InternalAccountView, InternalAccountNotFound | StoreFailure.StoreFailure> =>
                Effect.fail(InternalAccountNotFound.of(id)),
              onSome: (account) => view(platform, account)
            })
          ),
          "InternalAccounts.get"
        ),
      list: (platform, filter, page) =>
        Effect.withSpan(
          Effect.gen(function* () {
            const found = yield* repo.list(platform.id, filter, page)
            const data = yield* Effect.forEach(found.data, (account) => view(platform, account))
            return { ...found, data }
          }),
          "InternalAccounts.list"
        )
    }
  })
)
