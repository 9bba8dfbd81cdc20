import { Duration, Option } from "effect"

/**
 * The sandbox card network's magic values (the reference API's, docs/card-transactions.md): the last three
 * characters of `merchant.descriptor` decide an authorization.
 * - `002`: declined, `INSUFFICIENT_FUNDS`;
 * - `003`: declined, `CARD_PAUSED`;
 * - `005`: approved, the pull from the funding source confirms after about 30 seconds (`pullSummary.pendingCount`
 *   is 1 until then);
 * - `006`: approved, the pull fails to confirm: the transaction becomes `EXCEPTION` (and the hold is released);
 * - anything else: approved, the pull confirms at once.
 */
export type AuthorizationMagic =
  | { readonly _tag: "Decline"; readonly reason: "INSUFFICIENT_FUNDS" | "CARD_PAUSED" }
  | { readonly _tag: "DelayedPull"; readonly delay: Duration.Duration }
  | { readonly _tag: "PullFails" }
  | { readonly _tag: "Approve" }

/** How long the `005` pull stays pending. */
export const delayedPull = Duration.seconds(30)

export const authorizationMagic = (descriptor: string): AuthorizationMagic => {
  switch (descriptor.slice(-3)) {
    case "002":
      return { _tag: "Decline", reason: "INSUFFICIENT_FUNDS" }
    case "003":
      return { _tag: "Decline", reason: "CARD_PAUSED" }
    case "005":
      return { _tag: "DelayedPull", delay: delayedPull }
    case "006":
      return { _tag: "PullFails" }
    default:
      return { _tag: "Approve" }
  }
}

/** The decline a descriptor forces, if any. */
export const forcedDecline = (descriptor: string): Option.Option<"INSUFFICIENT_FUNDS" | "CARD_PAUSED"> => {
  const magic = authorizationMagic(descriptor)
  return magic._tag === "Decline" ? Option.some(magic.reason) : Option.none()
}
