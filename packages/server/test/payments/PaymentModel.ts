/*
 * An independent model of quotes, their transactions and the internal accounts they move money between, for the
 * model-based payment property (PaymentProperties.test.ts): what the API must answer and show after each step.
 * Time is the platform's clock offset in seconds; the steps advance it in whole minutes, so that the few seconds of
 * real time a run takes never decide an outcome (the sandbox's delays are 30 seconds and 6 minutes, lifetimes 2, 5
 * and 30 minutes).
 */

/** Where a quote's money comes from: an internal account, or an external USD account pulled through ACH. */
export type Source =
  | { readonly type: "internal"; readonly accountId: string }
  | { readonly type: "pull"; readonly accountId: string; readonly suffix: string }

/** Where a quote's money goes: an internal account, or an external USD account paid out on a rail. */
export type Destination =
  | { readonly type: "internal"; readonly accountId: string }
  | { readonly type: "payout"; readonly accountId: string; readonly suffix: string; readonly rail?: string }

/** The statuses a quote and its transaction share. */
export type Status = "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "EXPIRED"

export interface ModelQuote {
  readonly id: string
  readonly transactionId: string
  readonly source: Source
  readonly destination: Destination
  readonly sendingMinor: number
  readonly receivingMinor: number
  /** The clock offset when it was created, and how long it may be executed. */
  readonly createdAt: number
  readonly lifetimeSeconds: number
  status: Status
  executedAt?: number
  failureReason?: string
  refund?: { readonly status: string; readonly reason: string }
}

/** The balances of an internal account the API must show: `balance` (available) and `totalBalance` (posted). */
export interface Balance {
  available: number
  total: number
}

/** What the model expects an execute to answer. */
export type ExecuteAnswer =
  | { readonly status: 200 }
  | { readonly status: 400; readonly code: "QUOTE_EXPIRED" | "INSUFFICIENT_FUNDS" }
  | { readonly status: 409; readonly code: "INVALID_STATE_TRANSITION" }

const minute = 60

// A rail's outcome of a payment executed `elapsed` seconds ago, as the sandbox's suffix tables give it.
type Outcome =
  | { readonly _tag: "Pending" }
  | { readonly _tag: "Completed" }
  | { readonly _tag: "Failed"; readonly reason: string; readonly refund?: ModelQuote["refund"] }
  | { readonly _tag: "Returned" }
  | { readonly _tag: "RefundFailed" }

const outcomeOf = (quote: ModelQuote, elapsed: number): Outcome => {
  if (quote.destination.type === "payout") {
    switch (quote.destination.suffix) {
      case "002":
        return { _tag: "Failed", reason: "QUOTE_EXECUTION_FAILED" }
      case "003":
        return elapsed >= 6 * minute ? { _tag: "Completed" } : { _tag: "Pending" }
      case "004":
        return { _tag: "Failed", reason: "COUNTERPARTY_POST_TX_FAILED" }
      case "005":
        return elapsed >= 30 ? { _tag: "Returned" } : { _tag: "Completed" }
      case "006":
        return {
          _tag: "Failed",
          reason: "QUOTE_EXECUTION_FAILED",
          refund: { status: "COMPLETED", reason: "USER_CANCELLATION" }
        }
      case "007":
        return { _tag: "RefundFailed" }
      default:
        return { _tag: "Completed" }
    }
  }
  if (quote.source.type === "pull") {
    switch (quote.source.suffix) {
      case "002":
        return { _tag: "Failed", reason: "INSUFFICIENT_FUNDS" }
      case "003":
        return { _tag: "Failed", reason: "ACCOUNT_INVALID" }
      case "004":
        return { _tag: "Failed", reason: "COUNTERPARTY_POST_TX_FAILED" }
      case "005":
        return elapsed >= 30 ? { _tag: "Failed", reason: "COUNTERPARTY_POST_TX_FAILED" } : { _tag: "Pending" }
      default:
        return { _tag: "Completed" }
    }
  }
  return { _tag: "Completed" }
}

/** How long a quote to `destination` may be executed (docs/payments.md). */
export const lifetimeOf = (destination: Destination): number =>
  destination.type === "payout" && destination.rail !== "RTP" && destination.rail !== "FEDNOW"
    ? 30 * minute
    : 5 * minute

export class Model {
  now = 0
  readonly quotes: Array<ModelQuote> = []
  readonly balances = new Map<string, Balance>()

  balanceOf(accountId: string): Balance {
    let balance = this.balances.get(accountId)
    if (balance === undefined) {
      balance = { available: 0, total: 0 }
      this.balances.set(accountId, balance)
    }
    return balance
  }

  fund(accountId: string, amount: number): void {
    const balance = this.balanceOf(accountId)
    balance.available += amount
    balance.total += amount
  }

  /** What executing `quote` now answers; an accepted execute reserves the source's money (a book transfer moves it). */
  execute(quote: ModelQuote): ExecuteAnswer {
    if (quote.status === "EXPIRED") return { status: 400, code: "QUOTE_EXPIRED" }
    if (quote.status !== "PENDING") return { status: 409, code: "INVALID_STATE_TRANSITION" }
    if (this.now - quote.createdAt >= quote.lifetimeSeconds) return { status: 400, code: "QUOTE_EXPIRED" }
    if (quote.source.type === "internal" && this.balanceOf(quote.source.accountId).available < quote.sendingMinor) {
      return { status: 400, code: "INSUFFICIENT_FUNDS" }
    }
    if (quote.source.type === "internal") this.balanceOf(quote.source.accountId).available -= quote.sendingMinor
    quote.executedAt = this.now
    // Between two internal accounts the execute settles the payment at once.
    if (quote.source.type === "internal" && quote.destination.type === "internal") {
      this.confirm(quote)
      quote.status = "COMPLETED"
    } else {
      quote.status = "PROCESSING"
    }
    return { status: 200 }
  }

  // The reservation becomes posted: the source pays, an internal destination receives.
  private confirm(quote: ModelQuote): void {
    if (quote.source.type === "internal") this.balanceOf(quote.source.accountId).total -= quote.sendingMinor
    if (quote.destination.type === "internal") this.fund(quote.destination.accountId, quote.receivingMinor)
  }

  // The reservation is cancelled: the source's money is available again.
  private release(quote: ModelQuote): void {
    if (quote.source.type === "internal") this.balanceOf(quote.source.accountId).available += quote.sendingMinor
  }

  // A confirmed payment comes back: the source gets all of it back (a payout has no internal destination).
  private refund(quote: ModelQuote): void {
    if (quote.source.type === "internal") this.fund(quote.source.accountId, quote.sendingMinor)
  }

  /** Every job due now has run: quotes past their lifetime expire, executed payments move as their rail says. */
  settle(): void {
    for (const quote of this.quotes) {
      if (quote.status === "PENDING") {
        if (this.now - quote.createdAt >= quote.lifetimeSeconds) {
          quote.status = "EXPIRED"
          quote.failureReason = "QUOTE_EXPIRED"
        }
        continue
      }
      if (quote.status !== "PROCESSING" && quote.status !== "COMPLETED") continue
      const outcome = outcomeOf(quote, this.now - (quote.executedAt ?? this.now))
      if (quote.status === "COMPLETED") {
        if (outcome._tag === "Returned") {
          this.refund(quote)
          this.returned(quote)
        }
        continue
      }
      switch (outcome._tag) {
        case "Pending":
          break
        case "Completed":
          this.confirm(quote)
          quote.status = "COMPLETED"
          break
        case "Failed":
          this.release(quote)
          quote.status = "FAILED"
          quote.failureReason = outcome.reason
          if (outcome.refund !== undefined) quote.refund = outcome.refund
          break
        case "Returned":
          // Delivered and returned before anyone looked: nothing is left with the payee, the source has it all.
          this.release(quote)
          this.returned(quote)
          break
        case "RefundFailed":
          this.confirm(quote)
          quote.status = "FAILED"
          quote.failureReason = "QUOTE_EXECUTION_FAILED"
          quote.refund = { status: "FAILED", reason: "TRANSACTION_FAILED" }
          break
      }
    }
  }

  private returned(quote: ModelQuote): void {
    quote.status = "FAILED"
    quote.failureReason = "PAYOUT_RETURNED"
    quote.refund = { status: "COMPLETED", reason: "TRANSACTION_FAILED" }
  }
}
