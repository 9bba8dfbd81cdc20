import { Schema } from "effect"
import { CountryCode } from "@payrail/account-formats"
import { Currency } from "../kernel/index.js"

/**
 * The receiving institutions of each corridor (docs/discoveries.md): a data set the project ships in
 * `data/institutions.json`, built from a public SWIFT directory by `scripts/refresh-institutions.mjs` (its source
 * and date in `data/README.md`). A corridor is a country and the fiat currency of its accounts.
 */

/** A fiat currency code of the registry (not a crypto asset): what `GET /discoveries?currency` accepts. */
export const FiatCurrencyCode = Currency.CurrencyCode.pipe(
  Schema.filter((code) => !["BTC", "USDC", "USDT"].includes(code), { description: "a fiat currency code" })
).annotations({ identifier: "FiatCurrencyCode" })

/** One receiving institution: `bankName` is the value to pass as `accountInfo.bankName`. */
export const Discovery = Schema.Struct({
  bankName: Schema.String,
  displayName: Schema.String,
  country: Schema.String,
  currency: Schema.String
}).annotations({ identifier: "Discovery" })
export type Discovery = typeof Discovery.Type

const DataSet = Schema.Struct({
  source: Schema.String,
  corridors: Schema.Record({ key: Schema.String, value: Schema.Array(CountryCode.CountryCode) }),
  institutions: Schema.Array(
    Schema.Struct({ bankName: Schema.String, displayName: Schema.String, country: Schema.String })
  )
})

/** The data set, checked: its corridors, its institutions (each with its country's currency) and its source. */
export interface Institutions {
  /** Each fiat currency and the countries (ISO 3166-1 alpha-2) whose accounts are in it. */
  readonly corridors: ReadonlyMap<string, ReadonlyArray<string>>
  /** Every institution, by country then name. */
  readonly all: ReadonlyArray<Discovery>
  /** Where the data set comes from (package and version), as its README says in more detail. */
  readonly source: string
}

const checked = (shipped: unknown): Institutions => {
  const data = Schema.decodeUnknownSync(DataSet)(shipped)
  const corridors = new Map(Object.entries(data.corridors))
  const currencyOfCountry = new Map<string, string>()
  for (const [currency, countries] of corridors)
    for (const country of countries) currencyOfCountry.set(country, currency)
  const all = data.institutions.flatMap((entry) => {
    const currency = currencyOfCountry.get(entry.country)
    return currency === undefined ? [] : [{ ...entry, currency }]
  })
  return { corridors, all, source: data.source }
}

/**
 * The data set, imported and checked when called: about 1.2 MB of JSON, so that a server which never answers
 * `GET /discoveries` does not hold it (the `Lookups` layer loads it once, on first use).
 */
export const load = (): Promise<Institutions> =>
  import("./data/institutions.json", { with: { type: "json" } }).then((module) => checked(module.default))

/**
 * The institutions of the corridor: those of `country` and `currency` when both are given, of either when one is,
 * every one when neither is. A corridor the data set does not serve answers an empty list.
 */
export const find = (
  institutions: Institutions,
  filter: {
    readonly country?: string | undefined
    readonly currency?: string | undefined
  }
): ReadonlyArray<Discovery> =>
  institutions.all.filter(
    (entry) =>
      (filter.country === undefined || entry.country === filter.country) &&
      (filter.currency === undefined || entry.currency === filter.currency)
  )
