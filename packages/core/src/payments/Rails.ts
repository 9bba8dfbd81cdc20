import { Context, type DateTime, type Effect } from "effect"
import type { ExternalAccount } from "../accounts/index.js"
import type { FailureReason } from "./Transaction.js"

/**
 * One leg of a payment that crosses a rail: money paid out to an external account or an UMA address, or pulled from
 * an external account. Which outcome table applies depends on `purpose`: a quote's payout or a same-currency
 * transfer (or pull).
 */
export interface RailLeg {
  readonly direction: "PAYOUT" | "PULL"
  readonly purpose: "QUOTE" | "TRANSFER"
  readonly counterparty:
    | { readonly _tag: "ExternalAccount"; readonly account: ExternalAccount.ExternalAccount }
    | { readonly _tag: "UmaAddress"; readonly umaAddress: string }
  readonly currency: string
  readonly amountMinor: bigint
  /** The transaction the leg belongs to: a rail's reference for it. */
  readonly transactionId: string
  /** When the leg was handed to the rail (the payment's execution), in the platform's time. */
  readonly startedAt: DateTime.Utc
}

/**
 * Where a leg stands at a given time:
 * - `Pending`: not settled yet; ask again at `checkAt`.
 * - `Completed`: delivered (payout) or collected (pull). `checkAgainAt` is set when the rail may still report a
 *   return later (a receiving bank can send a delivered payment back).
 * - `Failed`: it did not happen and no money moved: the reservation is released.
 * - `Returned`: it was delivered, then came back: the money is refunded to the source by a new posting.
 * - `RefundFailed`: the payout failed after the money left and sending it back failed too: the money stays in rail
 *   clearing for operators to resolve.
 */
export type RailStatus =
  | { readonly _tag: "Pending"; readonly checkAt: DateTime.Utc }
  | { readonly _tag: "Completed"; readonly checkAgainAt?: DateTime.Utc }
  | { readonly _tag: "Failed"; readonly reason: FailureReason; readonly cancelledByUser: boolean }
  | { readonly _tag: "Returned"; readonly reason: FailureReason }
  | { readonly _tag: "RefundFailed"; readonly reason: FailureReason }

/**
 * The rails provider port: where a payment leg stands at `now`. Payments ask when a leg starts and again at each
 * `checkAt` (a durable job, so a restart loses nothing and a sandbox clock advance brings the answer at once).
 * `status` must be a pure function of the leg and the time for the same leg (asking twice at one time answers the
 * same), so that a job run twice applies one outcome. A real adapter asks its provider (or reads what the
 * provider's callbacks stored); `@payrail/sandbox` applies the spec's magic suffixes.
 */
export class Rails extends Context.Tag("@payrail/core/Rails")<
  Rails,
  {
    readonly status: (leg: RailLeg, now: DateTime.Utc) => Effect.Effect<RailStatus>
  }
>() {}
