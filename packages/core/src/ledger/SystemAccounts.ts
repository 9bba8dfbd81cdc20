import { Option, Schema } from "effect"
import type { LedgerAccount } from "./Ledger.js"
import { Currency } from "../kernel/index.js"
import { Platform } from "../platforms/index.js"

/**
 * A platform's system accounts: one per kind and currency, through which money enters, leaves or changes currency,
 * so that every external flow is a balanced posting too. They are unguarded (their balance may be negative: rail
 * clearing is negative by what the platform's customers hold) and hot: every rail movement touches them.
 *
 * Their ids follow one documented scheme, `SystemAccount:<platformId>:<kind>:<currency>`, for example
 * `SystemAccount:Platform:0b7e…:RAIL_CLEARING:USD`, so any service can name them without a lookup.
 */

/**
 * - `RAIL_CLEARING`: the counterpart of money moving through external rails (deposits, payouts).
 * - `FEES`: fees the platform's customers pay.
 * - `FX`: the counterpart of currency conversion, one account per currency on each side of an exchange.
 */
export const Kind = Schema.Literal("RAIL_CLEARING", "FEES", "FX")
export type Kind = typeof Kind.Type

/** Every kind, in a fixed order. */
export const kinds: ReadonlyArray<Kind> = Kind.literals

const prefix = "SystemAccount"
const pattern = /^SystemAccount:(Platform:[0-9a-f-]{36}):(RAIL_CLEARING|FEES|FX):([A-Z]{3,5})$/

/** The id of the platform's system account of `kind` in `currency`. Deterministic: same inputs, same id. */
export const accountId = (platformId: Platform.PlatformId, kind: Kind, currency: string): string =>
  `${prefix}:${platformId}:${kind}:${currency}`

/** What a system account id names; `None` for any other string (including unknown currencies). */
export interface Parsed {
  readonly platformId: Platform.PlatformId
  readonly kind: Kind
  readonly currency: string
}

const isPlatformId = Schema.is(Platform.PlatformId)
const isKind = Schema.is(Kind)

/** Reads a system account id back; `None` unless it follows the scheme with a known platform id form and currency. */
export const parse = (id: string): Option.Option<Parsed> => {
  const match = pattern.exec(id)
  if (match === null) return Option.none()
  const [, platformId, kind, currency] = match
  return isPlatformId(platformId) && isKind(kind) && currency !== undefined && Currency.registry.has(currency)
    ? Option.some({ platformId, kind, currency })
    : Option.none()
}

/** Whether `id` names a system account. */
export const isSystemAccountId = (id: string): boolean => Option.isSome(parse(id))

/** The ledger account to open for the platform's system account of `kind` in `currency`: unguarded. */
export const account = (platformId: Platform.PlatformId, kind: Kind, currency: string): LedgerAccount => ({
  id: accountId(platformId, kind, currency),
  platformId,
  currency,
  guarded: false
})

/** Every system account of the platform for `currencies`: each kind in each currency, without duplicates. */
export const accountsFor = (
  platformId: Platform.PlatformId,
  currencies: Iterable<string>
): ReadonlyArray<LedgerAccount> =>
  Array.from(new Set(currencies)).flatMap((currency) => kinds.map((kind) => account(platformId, kind, currency)))

/**
 * A guarded ledger account (a customer's or the platform's internal account): its available balance never goes
 * below zero. `id` is the internal account's id, so the balance lives under the same name.
 */
export const guardedAccount = (platformId: Platform.PlatformId, id: string, currency: string): LedgerAccount => ({
  id,
  platformId,
  currency,
  guarded: true
})
