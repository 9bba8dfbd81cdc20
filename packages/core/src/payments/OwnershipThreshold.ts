import { Effect } from "effect"
import type { ExternalAccountStatus } from "../accounts/index.js"
import { ExternalAccountVerificationRequired } from "./PaymentErrors.js"
import { FxRateCache } from "./FxRateCache.js"

/**
 * The most a payment may deliver to an external account whose ownership is not verified yet, in euro minor units:
 * EUR 1,000.00, the EU transfer-of-funds (travel rule) threshold for self-hosted wallets. Below it a transfer is
 * allowed, as the spec says of `PENDING_OWNERSHIP_VERIFICATION`; above it the destination must be verified first.
 */
export const thresholdEurMinor = 100_000n

const thresholdCurrency = "EUR"
const thresholdDecimals = 2

/** The statuses whose ownership is not verified: waiting for a verification, or after a failed one. */
export const unverified = (status: ExternalAccountStatus.ExternalAccountStatus): boolean =>
  status === "PENDING_OWNERSHIP_VERIFICATION" || status === "UNVERIFIED"

/**
 * Refuses (`EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED`) a payment delivering `amountMinor` of `currency` (with
 * `decimals` minor digits) to the unverified account `accountId` when it is worth more than `thresholdEurMinor`,
 * valued at the provider's mid rate (no spread): exactly, in integers. A rate that cannot be had refuses the quote
 * (`QUOTE_RATE_UNAVAILABLE`) rather than let an unvalued payment through.
 */
export const check = (
  payout: {
    readonly accountId: string
    readonly status: ExternalAccountStatus.ExternalAccountStatus
    readonly currency: string
    readonly decimals: number
  },
  amountMinor: bigint
) =>
  Effect.gen(function* () {
    if (!unverified(payout.status)) return
    // mid = currency major units per euro = digits / 10^scale. Worth in euro minor units:
    // amountMinor / 10^decimals / mid × 10^2 > threshold  ⇔  amountMinor × 10^scale × 10^2 > threshold × digits × 10^decimals
    const { mid } = yield* Effect.flatMap(FxRateCache, (rates) => rates.rate(payout.currency, thresholdCurrency))
    const worth = amountMinor * 10n ** BigInt(mid.scale) * 10n ** BigInt(thresholdDecimals)
    const limit = thresholdEurMinor * mid.digits * 10n ** BigInt(payout.decimals)
    if (worth > limit) return yield* ExternalAccountVerificationRequired.of(payout.accountId, payout.status)
  })
