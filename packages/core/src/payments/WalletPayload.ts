import { DateTime, Option } from "effect"
import type { PaymentInstructions, Quote } from "./Quote.js"

/** The `accountType` of the payment instructions that carry an embedded wallet's `payloadToSign`. */
export const accountType = "EMBEDDED_WALLET"

/** What a wallet-funded quote commits to, as its payload names it. */
export interface Terms {
  readonly quoteId: string
  readonly accountId: string
  readonly sendingCurrency: string
  readonly totalSendingAmount: number
  readonly receivingCurrency: string
  readonly totalReceivingAmount: number
  readonly destination: Quote["destination"]
  readonly expiresAt: DateTime.Utc
}

/**
 * The text the wallet owner's device stamps to execute a quote funded by an embedded wallet: JSON naming the quote,
 * the wallet, both amounts, the destination and the expiry, in a fixed key order. Opaque to clients, which stamp it
 * byte for byte.
 */
export const payloadToSign = (terms: Terms): string =>
  JSON.stringify({
    type: "EXECUTE_QUOTE",
    quoteId: terms.quoteId,
    accountId: terms.accountId,
    sendingCurrency: terms.sendingCurrency,
    totalSendingAmount: terms.totalSendingAmount,
    receivingCurrency: terms.receivingCurrency,
    totalReceivingAmount: terms.totalReceivingAmount,
    destination: terms.destination,
    expiresAt: DateTime.formatIso(terms.expiresAt)
  })

/** The payment instructions of a wallet-funded quote (the reference's shape): its `payloadToSign`. */
export const instructions = (payload: string): PaymentInstructions => ({
  accountOrWalletInfo: { accountType, payloadToSign: payload }
})

/** The wallet and the payload of a quote funded by an embedded wallet; none for any other quote. */
export const of = (quote: Quote): Option.Option<{ readonly accountId: string; readonly payloadToSign: string }> => {
  if (quote.source.sourceType !== "ACCOUNT") return Option.none()
  const accountId = quote.source.accountId
  return Option.flatMap(
    Option.fromNullable(quote.paymentInstructions.find((item) => item.accountOrWalletInfo.accountType === accountType)),
    (item) => {
      const payload = item.accountOrWalletInfo["payloadToSign"]
      return typeof payload === "string" ? Option.some({ accountId, payloadToSign: payload }) : Option.none()
    }
  )
}
