import type { Ledger } from "../ledger/index.js"
import { SystemAccounts } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import type { Quote } from "./Quote.js"

/** Whether a quote's source or destination account id names an internal (ledger-held) account. */
export const isInternalAccountId = (accountId: string): boolean => accountId.startsWith("InternalAccount:")

/**
 * Whether a quote pays from one internal account to another: a book transfer, which crosses no rail and settles in
 * the unit of work that executes it.
 */
export const isBookTransfer = (quote: Quote): boolean =>
  quote.source.sourceType === "ACCOUNT" &&
  isInternalAccountId(quote.source.accountId) &&
  isInternalAccountId(destinationAccountId(quote))

/**
 * The ledger entries of an executed quote, balanced per currency (nothing created or destroyed):
 * - the source pays `totalSendingAmount`: an internal account is debited; money pulled from an external account or
 *   paid in by the payer enters through the sending currency's rail clearing account;
 * - `feesIncluded` goes to the platform's fee account of the sending currency;
 * - across currencies, the converted amount (`totalSendingAmount - feesIncluded`) goes to the sending currency's FX
 *   account and `totalReceivingAmount` comes out of the receiving currency's FX account; in one currency the
 *   converted amount is the received amount;
 * - the destination gets `totalReceivingAmount`: an internal account is credited; a payout leaves through the
 *   receiving currency's rail clearing account.
 * Entries of one account and currency are merged, and zero amounts dropped, so the posting is always valid.
 */
export const entriesOf = (platformId: Platform.PlatformId, quote: Quote): ReadonlyArray<Ledger.Entry> => {
  const sending = quote.sendingCurrency.code
  const receiving = quote.receivingCurrency.code
  const total = BigInt(quote.totalSendingAmount)
  const fees = BigInt(quote.feesIncluded)
  const received = BigInt(quote.totalReceivingAmount)
  const system = (kind: SystemAccounts.Kind, currency: string) => SystemAccounts.accountId(platformId, kind, currency)
  const sourceAccount =
    quote.source.sourceType === "ACCOUNT" && isInternalAccountId(quote.source.accountId)
      ? quote.source.accountId
      : system("RAIL_CLEARING", sending)
  const destinationAccount = isInternalAccountId(destinationAccountId(quote))
    ? destinationAccountId(quote)
    : system("RAIL_CLEARING", receiving)
  const raw: Array<Ledger.Entry> = [
    { accountId: sourceAccount, currency: sending, amountMinor: -total },
    { accountId: system("FEES", sending), currency: sending, amountMinor: fees }
  ]
  if (sending === receiving) {
    raw.push({ accountId: destinationAccount, currency: receiving, amountMinor: received })
  } else {
    raw.push(
      { accountId: system("FX", sending), currency: sending, amountMinor: total - fees },
      { accountId: system("FX", receiving), currency: receiving, amountMinor: -received },
      { accountId: destinationAccount, currency: receiving, amountMinor: received }
    )
  }
  return merge(raw)
}

/** The entries of `entries` reversed: what gives every account back what the posting moved. */
export const reversed = (entries: ReadonlyArray<Ledger.Entry>): ReadonlyArray<Ledger.Entry> =>
  entries.map((entry) => ({ ...entry, amountMinor: -entry.amountMinor }))

/**
 * The account id a quote pays into: its destination account, or the account an UMA address on the platform's own
 * domain resolved to; empty for an UMA address elsewhere (paid out through the rail).
 */
export const destinationAccountId = (quote: Quote): string =>
  quote.destination.destinationType === "ACCOUNT" ? quote.destination.accountId : (quote.destination.accountId ?? "")

const merge = (entries: ReadonlyArray<Ledger.Entry>): ReadonlyArray<Ledger.Entry> => {
  const byAccount = new Map<string, Ledger.Entry>()
  for (const entry of entries) {
    const key = `${entry.accountId}\u0000${entry.currency}`
    const previous = byAccount.get(key)
    byAccount.set(
      key,
      previous === undefined ? entry : { ...entry, amountMinor: previous.amountMinor + entry.amountMinor }
    )
  }
  return Array.from(byAccount.values()).filter((entry) => entry.amountMinor !== 0n)
}
