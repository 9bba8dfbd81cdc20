import { Effect, Option } from "effect"
import {
  type ExternalAccount,
  ExternalAccountRepo,
  type InternalAccount,
  InternalAccountRepo
} from "../accounts/index.js"
import { type Customer, CustomerRepo, type UmaAddress } from "../customers/index.js"
import { Page } from "../kernel/index.js"
import type { Platform, PlatformConfig } from "../platforms/index.js"
import { UmaNotFound } from "./UmaErrors.js"

/**
 * Where a customer of the platform receives UMA payments to its address: the external account it marked
 * `defaultUmaDepositAccount`, else its primary internal account of the payment's currency (the oldest active
 * internal account of that currency that is not an embedded wallet).
 */
export type Deposit =
  | { readonly _tag: "External"; readonly account: ExternalAccount.ExternalAccount }
  | { readonly _tag: "Internal"; readonly accounts: ReadonlyArray<InternalAccount.InternalAccount> }

/** A customer of the platform found by its UMA address, with where its UMA payments go. */
export interface OwnReceiver {
  readonly customer: Customer.Customer
  readonly deposit: Deposit
}

const pageSize = 100

// Every item of a keyset list, oldest first (lists are newest first).
const everything = <A, E, R>(list: (page: Page.PageRequest) => Effect.Effect<Page.Page<A>, E, R>) =>
  Effect.gen(function* () {
    const items: Array<A> = []
    let after = Option.none<Page.Cursor>()
    for (;;) {
      const page = yield* list({ limit: pageSize, after })
      items.push(...page.data)
      if (page.nextCursor === undefined) return items.reverse()
      after = Option.some(yield* Effect.orDie(Page.decodeCursor(page.nextCursor)))
    }
  })

/**
 * The customer at an address of the platform's own UMA domain, with its deposit accounts; `UMA_NOT_FOUND` when no
 * live customer has the address.
 */
export const ownReceiver = (platform: Platform.Platform, address: UmaAddress.UmaAddress) =>
  Effect.gen(function* () {
    const found = yield* Effect.flatMap(CustomerRepo.CustomerRepo, (repo) =>
      repo.findByUmaAddress(platform.id, address)
    )
    if (Option.isNone(found)) return yield* UmaNotFound.of(address)
    const customer = found.value.customer
    const externals = yield* Effect.flatMap(ExternalAccountRepo.ExternalAccountRepo, (repo) =>
      everything((page) => repo.list(platform.id, { owner: "customers", customerId: customer.id }, page))
    )
    const preferred = externals.find((account) => account.defaultUmaDepositAccount)
    if (preferred !== undefined) {
      return { customer, deposit: { _tag: "External", account: preferred } } satisfies OwnReceiver
    }
    const internals = yield* Effect.flatMap(InternalAccountRepo.InternalAccountRepo, (repo) =>
      everything((page) => repo.list(platform.id, { owner: "customers", customerId: customer.id }, page))
    )
    const accounts = internals.filter((account) => account.status === "ACTIVE" && account.type !== "EMBEDDED_WALLET")
    return { customer, deposit: { _tag: "Internal", accounts } } satisfies OwnReceiver
  })

/**
 * The currencies a customer of the platform receives UMA payments in: those of its deposit accounts that the platform
 * supports, in the order of the platform's `supportedCurrencies` (its first, usually its home currency, first).
 */
export const currenciesOf = (platform: Platform.Platform, receiver: OwnReceiver): ReadonlyArray<string> => {
  const codes = new Set(
    receiver.deposit._tag === "External"
      ? [receiver.deposit.account.currency]
      : receiver.deposit.accounts.map((account) => account.currency)
  )
  return platform.config.supportedCurrencies.map((entry) => entry.currencyCode).filter((code) => codes.has(code))
}

/** The account a payment in `currency` to the customer is deposited to; `None` when it receives no such currency. */
export const depositAccountOf = (receiver: OwnReceiver, currency: string): Option.Option<string> =>
  receiver.deposit._tag === "External"
    ? receiver.deposit.account.currency === currency
      ? Option.some(receiver.deposit.account.id)
      : Option.none()
    : Option.fromNullable(receiver.deposit.accounts.find((account) => account.currency === currency)?.id)

/**
 * The payer data a payment to a customer of the platform needs: the platform's `requiredCounterpartyFields` of each
 * currency, one entry per field name, mandatory when any currency makes it mandatory.
 */
export const payerDataOf = (
  platform: Platform.Platform,
  currencies: ReadonlyArray<string>
): ReadonlyArray<PlatformConfig.CounterpartyField> => {
  const byName = new Map<string, PlatformConfig.CounterpartyField>()
  for (const entry of platform.config.supportedCurrencies) {
    if (!currencies.includes(entry.currencyCode)) continue
    for (const field of entry.requiredCounterpartyFields) {
      const previous = byName.get(field.name)
      byName.set(field.name, { name: field.name, mandatory: field.mandatory || (previous?.mandatory ?? false) })
    }
  }
  return Array.from(byName.values())
}
