import { Option, Schema } from "effect"
import * as SchemaClass from "./SchemaClass.js"

/** A currency as the API shows it: `{code, name, decimals, symbol?}`; amounts are integers in `10^-decimals` units. */
export class Currency extends SchemaClass.Class<Currency>("Currency")({
  code: Schema.String,
  name: Schema.String,
  decimals: Schema.Int.pipe(Schema.nonNegative()),
  symbol: Schema.optional(Schema.String)
}) {}

/** The code of the platform stablecoin. A platform that supports it gets an embedded wallet per customer. */
export const platformStablecoinCode = "USDC"

const entries: ReadonlyArray<readonly [code: string, name: string, decimals: number, symbol?: string]> = [
  ["AED", "UAE Dirham", 2, "د.إ"],
  ["BDT", "Bangladeshi Taka", 2, "৳"],
  ["BRL", "Brazilian Real", 2, "R$"],
  ["BTC", "Bitcoin", 8, "₿"],
  ["BWP", "Botswana Pula", 2, "P"],
  ["CAD", "Canadian Dollar", 2, "$"],
  ["CNY", "Chinese Yuan", 2, "¥"],
  ["COP", "Colombian Peso", 2, "$"],
  ["DKK", "Danish Krone", 2, "kr"],
  ["EGP", "Egyptian Pound", 2, "E£"],
  ["EUR", "Euro", 2, "€"],
  ["GBP", "Pound Sterling", 2, "£"],
  ["GHS", "Ghanaian Cedi", 2, "₵"],
  ["GTQ", "Guatemalan Quetzal", 2, "Q"],
  ["HKD", "Hong Kong Dollar", 2, "$"],
  ["HTG", "Haitian Gourde", 2, "G"],
  ["IDR", "Indonesian Rupiah", 2, "Rp"],
  ["ILS", "Israeli New Shekel", 2, "₪"],
  ["INR", "Indian Rupee", 2, "₹"],
  ["JMD", "Jamaican Dollar", 2, "$"],
  ["KES", "Kenyan Shilling", 2, "KSh"],
  ["MWK", "Malawian Kwacha", 2, "MK"],
  ["MXN", "Mexican Peso", 2, "$"],
  ["MYR", "Malaysian Ringgit", 2, "RM"],
  ["NGN", "Nigerian Naira", 2, "₦"],
  ["PHP", "Philippine Peso", 2, "₱"],
  ["PKR", "Pakistani Rupee", 2, "₨"],
  ["RWF", "Rwandan Franc", 0, "FRw"],
  ["SGD", "Singapore Dollar", 2, "$"],
  ["THB", "Thai Baht", 2, "฿"],
  ["TRY", "Turkish Lira", 2, "₺"],
  ["TZS", "Tanzanian Shilling", 2, "TSh"],
  ["UGX", "Ugandan Shilling", 0, "USh"],
  ["USD", "US Dollar", 2, "$"],
  ["USDC", "USD Coin", 6],
  ["USDT", "Tether USD", 6],
  ["VND", "Vietnamese Dong", 0, "₫"],
  ["XAF", "Central African CFA Franc", 0, "FCFA"],
  ["XOF", "West African CFA Franc", 0, "CFA"],
  ["ZAR", "South African Rand", 2, "R"],
  ["ZMW", "Zambian Kwacha", 2, "ZK"]
]

/** Every currency Payrail knows, by code. The one registry all amounts and accounts refer to. */
export const registry: ReadonlyMap<string, Currency> = new Map(
  entries.map(([code, name, decimals, symbol]) => [
    code,
    new Currency(symbol === undefined ? { code, name, decimals } : { code, name, decimals, symbol })
  ])
)

/** Looks a currency up by its code. */
export const find = (code: string): Option.Option<Currency> => Option.fromNullable(registry.get(code))

/** A currency code that the registry knows; anything else fails with an `enum` constraint. */
export const CurrencyCode = Schema.Literal(...(Array.from(registry.keys()) as [string, ...Array<string>])).annotations({
  identifier: "CurrencyCode",
  description: "a supported currency code"
})
