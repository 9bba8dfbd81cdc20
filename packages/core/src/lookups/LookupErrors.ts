import { Schema } from "effect"

/**
 * Failures of the lookups and estimates, with the spec's codes. One constructor each (`of`); the HTTP status is
 * attached by `@payrail/api` (in brackets here).
 */

/** Why a withdrawal cannot be estimated from this account in this currency on this network. */
export const WithdrawalRule = Schema.Literal(
  "account_not_crypto",
  "currency_mismatch",
  "network_does_not_carry_currency"
)
export type WithdrawalRule = typeof WithdrawalRule.Type

const withdrawalReasons: { readonly [R in WithdrawalRule]: string } = {
  account_not_crypto:
    "The account is not a crypto account: only INTERNAL_CRYPTO and EMBEDDED_WALLET accounts withdraw on-chain",
  currency_mismatch: "The currency is not the account's currency",
  network_does_not_carry_currency: "The network does not carry this currency"
}

/**
 * The withdrawal is not possible [400 `INVALID_CURRENCY`]: the account is not a crypto account, `currency` is not
 * its currency, or `cryptoNetwork` does not carry it. `details` names the rule, the field and the values involved.
 */
export class WithdrawalNotSupported extends Schema.TaggedError<WithdrawalNotSupported>()("WithdrawalNotSupported", {
  code: Schema.tag("INVALID_CURRENCY"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: WithdrawalRule,
    field: Schema.String,
    currency: Schema.String,
    accountCurrency: Schema.optional(Schema.String),
    cryptoNetwork: Schema.optional(Schema.String)
  })
}) {
  static of(
    rule: WithdrawalRule,
    details: { readonly currency: string; readonly accountCurrency?: string; readonly cryptoNetwork?: string }
  ): WithdrawalNotSupported {
    const field =
      rule === "network_does_not_carry_currency"
        ? "cryptoNetwork"
        : rule === "account_not_crypto"
          ? "internalAccountId"
          : "currency"
    return new WithdrawalNotSupported({ reason: withdrawalReasons[rule], details: { rule, field, ...details } })
  }
}

/** The amount does not cover the withdrawal's fees [400 `INVALID_AMOUNT`]: nothing would arrive. */
export class AmountBelowFee extends Schema.TaggedError<AmountBelowFee>()("AmountBelowFee", {
  code: Schema.tag("INVALID_AMOUNT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("amount_below_fee"), amount: Schema.Int, totalFee: Schema.Int })
}) {
  static of(amount: number, totalFee: number): AmountBelowFee {
    return new AmountBelowFee({
      reason: `The amount (${amount}) does not exceed the withdrawal's fees (${totalFee})`,
      details: { rule: "amount_below_fee", amount, totalFee }
    })
  }
}
