import { DateTime, Duration, Either } from "effect"
import { ExternalAccountInfo } from "@payrail/account-formats"
import { FieldError, InvalidInput } from "../kernel/index.js"

/**
 * Rails that settle in seconds: their quotes live 5 minutes (the reference: 1 to 5 minutes on instant rails). `UMA`
 * is the rail of a payment to an UMA address of another domain.
 */
const instantRails: ReadonlySet<string> = new Set([
  "RTP",
  "FEDNOW",
  "SEPA_INSTANT",
  "FASTER_PAYMENTS",
  "SPEI",
  "PIX",
  "UPI",
  "PAYNOW",
  "FAST",
  "MOBILE_MONEY",
  "UMA"
])

/**
 * How long a quote stays executable, by where it pays (docs/payments.md): 2 minutes to a crypto wallet or a
 * Lightning destination (prices move fast), 5 minutes to an internal account or on an instant rail (UMA included),
 * 30 minutes on the slower rails (ACH, wire, SEPA, SWIFT, bank transfer).
 */
export const lifetimeOf = (rail: string): Duration.Duration =>
  rail === "INTERNAL"
    ? Duration.minutes(5)
    : instantRails.has(rail)
      ? Duration.minutes(5)
      : rail.endsWith("_WALLET") || rail === "LIGHTNING" || rail === "SPARK_WALLET"
        ? Duration.minutes(2)
        : Duration.minutes(30)

/**
 * The rail that pays an external account: the one asked for (`destination.paymentRail`), which must be one of the
 * account's `paymentRails`, else the account's first rail; a wallet or Lightning destination is paid on its own
 * network, named by its account type.
 */
export const railOf = (
  info: ExternalAccountInfo.ExternalAccountInfo,
  requested: string | undefined
): Either.Either<string, InvalidInput.InvalidInput> => {
  const rails: ReadonlyArray<string> =
    "paymentRails" in info && Array.isArray(info.paymentRails) ? info.paymentRails : []
  if (rails.length === 0) {
    return requested === undefined || requested === info.accountType
      ? Either.right(info.accountType)
      : Either.left(unsupportedRail([info.accountType]))
  }
  if (requested === undefined) return Either.right(rails[0]!)
  return rails.includes(requested) ? Either.right(requested) : Either.left(unsupportedRail(rails))
}

const unsupportedRail = (rails: ReadonlyArray<string>) =>
  InvalidInput.InvalidInput.withErrors([
    new FieldError.FieldError({
      field: "destination.paymentRail",
      constraint: { enum: [...rails] },
      message: "must be one of the destination account's payment rails"
    })
  ])

/** Whether money can be pulled from the account (an ACH debit): a US bank account with the ACH rail. */
export const isPullable = (info: ExternalAccountInfo.ExternalAccountInfo): boolean =>
  "paymentRails" in info &&
  Array.isArray(info.paymentRails) &&
  (info.paymentRails as ReadonlyArray<string>).includes("ACH")

/**
 * Whether a quote can no longer execute because its time ran out: `EXPIRED`, or still `PENDING` at or after its
 * `expiresAt` (before the expiry job marked it).
 */
export const hasLapsed = (
  quote: { readonly status: string; readonly expiresAt: DateTime.Utc },
  now: DateTime.Utc
): boolean =>
  quote.status === "EXPIRED" || (quote.status === "PENDING" && DateTime.greaterThanOrEqualTo(now, quote.expiresAt))
