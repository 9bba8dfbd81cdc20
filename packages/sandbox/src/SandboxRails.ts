import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { ExternalAccountInfo, Rails, SandboxUmaAddresses, type Transaction } from "@payrail/core"

type Leg = Rails.RailLeg
type Status = Rails.RailStatus

/** How long the sandbox's slow outcomes take: about 30 seconds (transfer 005), about 6 minutes (quote 003). */
export const delays = {
  transferPending: Duration.seconds(30),
  quoteSlowCompletion: Duration.minutes(6),
  /** After a suffix-005 quote payout completes, its return arrives this much later. */
  quoteReturn: Duration.seconds(30)
} as const

/**
 * The last three characters of the counterparty's identifier: the account number, IBAN, CLABE or wallet address
 * (`ExternalAccountInfo.identifierOf`), or the user part of an UMA address or Lightning address.
 */
export const suffixOf = (leg: Leg): string => {
  const identifier =
    leg.counterparty._tag === "ExternalAccount"
      ? ExternalAccountInfo.identifierOf(leg.counterparty.account.accountInfo)
      : leg.counterparty.umaAddress.replace(/^\$/, "")
  const user = identifier.includes("@") ? identifier.slice(0, identifier.indexOf("@")) : identifier
  return user.slice(-3)
}

const failed = (reason: Transaction.FailureReason, cancelledByUser = false): Status => ({
  _tag: "Failed",
  reason,
  cancelledByUser
})

/**
 * Transfers and pulls, by the counterparty identifier's suffix: `002` insufficient funds and `003` account closed
 * or invalid fail at once, `004` the bank rejects it, `005` stays pending about 30 seconds then fails; any other
 * suffix succeeds at once.
 */
const transferStatus = (leg: Leg, now: DateTime.Utc): Status => {
  switch (suffixOf(leg)) {
    case "002":
      return failed("INSUFFICIENT_FUNDS")
    case "003":
      return failed("ACCOUNT_INVALID")
    case "004":
      return failed("COUNTERPARTY_POST_TX_FAILED")
    case "005": {
      const until = DateTime.addDuration(leg.startedAt, delays.transferPending)
      return DateTime.lessThan(now, until) ? { _tag: "Pending", checkAt: until } : failed("COUNTERPARTY_POST_TX_FAILED")
    }
    default:
      return { _tag: "Completed" }
  }
}

/**
 * Quote payouts, by the destination identifier's suffix: `002` execution fails, `003` completes after about 6
 * minutes, `004` counterparty delivery fails, `005` completes, then the receiving bank returns it (about 30 seconds
 * later), `006` the user cancels, `007` the payout fails after the money left and its refund fails too; any other
 * suffix completes at once.
 */
const quoteStatus = (leg: Leg, now: DateTime.Utc): Status => {
  switch (suffixOf(leg)) {
    case "002":
      return failed("QUOTE_EXECUTION_FAILED")
    case "003": {
      const until = DateTime.addDuration(leg.startedAt, delays.quoteSlowCompletion)
      return DateTime.lessThan(now, until) ? { _tag: "Pending", checkAt: until } : { _tag: "Completed" }
    }
    case "004":
      return failed("COUNTERPARTY_POST_TX_FAILED")
    case "005": {
      const returnAt = DateTime.addDuration(leg.startedAt, delays.quoteReturn)
      return DateTime.lessThan(now, returnAt)
        ? { _tag: "Completed", checkAgainAt: returnAt }
        : { _tag: "Returned", reason: "PAYOUT_RETURNED" }
    }
    case "006":
      return failed("QUOTE_EXECUTION_FAILED", true)
    case "007":
      return { _tag: "RefundFailed", reason: "QUOTE_EXECUTION_FAILED" }
    default:
      return { _tag: "Completed" }
  }
}

/**
 * Payouts to the spec's sandbox UMA addresses (`SandboxUmaAddresses`): `$success.<currency>` completes at its first
 * check, `$pending.long.<currency>` stays pending for `SandboxUmaAddresses.longPending` (1 hour) then completes,
 * `$fail.compliance.<currency>` fails with `COMPLIANCE_REJECTED` (the reservation is released). `None` for any other
 * address, which the suffix tables decide by its user part.
 */
export const umaStatus = (leg: Leg, now: DateTime.Utc): Option.Option<Status> => {
  if (leg.counterparty._tag !== "UmaAddress") return Option.none()
  return Option.map(Option.flatten(SandboxUmaAddresses.read(leg.counterparty.umaAddress)), ({ behavior }): Status => {
    switch (behavior) {
      case "SUCCESS":
        return { _tag: "Completed" }
      case "PENDING_LONG": {
        const until = DateTime.addDuration(leg.startedAt, SandboxUmaAddresses.longPending)
        return DateTime.lessThan(now, until) ? { _tag: "Pending", checkAt: until } : { _tag: "Completed" }
      }
      case "FAIL_COMPLIANCE":
        return failed("COMPLIANCE_REJECTED")
    }
  })
}

/**
 * The sandbox rails: the sandbox UMA addresses, then the spec's suffix tables, decided from the leg and the
 * platform's time alone.
 */
export const layer: Layer.Layer<Rails.Rails> = Layer.succeed(Rails.Rails, {
  status: (leg, now) =>
    Effect.succeed(
      Option.getOrElse(umaStatus(leg, now), () =>
        leg.purpose === "QUOTE" && leg.direction === "PAYOUT" ? quoteStatus(leg, now) : transferStatus(leg, now)
      )
    )
})
