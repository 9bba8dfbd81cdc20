import { Duration } from "effect"
import { UmaAddress } from "../customers/index.js"

/**
 * What the sandbox's UMA senders do (`POST /sandbox/uma/receive`), by the sender's address, as the reference's
 * sandbox describes them (`$<behavior>.<currency>@<sandbox UMA domain>`, the domain `sandbox.uma.money` or
 * `sandbox.grid.uma.money`):
 * - `$success.usd@…`, `$success.eur@…`, `$success.mxn@…`: the payment arrives at once (`COMPLETED`);
 * - `$pending.long.usd@…`: the payment stays `PENDING` for `pendingDelay`, then completes;
 * - `$fail.compliance.usd@…`: the payment is refused by compliance (`FAILED`, `COMPLIANCE_REJECTED`), nothing is
 *   credited;
 * - any other well-formed address: success, as a real sender's payment that clears.
 */
export type Behavior = "SUCCESS" | "LONG_PENDING" | "COMPLIANCE_FAILURE"

/** The sandbox UMA domains. */
export const domains: ReadonlyArray<string> = ["sandbox.uma.money", "sandbox.grid.uma.money"]

/**
 * How long a `$pending.long.…` payment stays pending: one hour. The reference says only "long"; an hour is long
 * for a payment that normally clears in seconds, and a sandbox clock advance of an hour (`POST /sandbox/clock`)
 * completes it at once.
 */
export const pendingDelay: Duration.Duration = Duration.hours(1)

const magic: ReadonlyMap<string, Behavior> = new Map([
  ["success.usd", "SUCCESS"],
  ["success.eur", "SUCCESS"],
  ["success.mxn", "SUCCESS"],
  ["pending.long.usd", "LONG_PENDING"],
  ["fail.compliance.usd", "COMPLIANCE_FAILURE"]
])

/** What a payment from `sender` (a parsed address) does in the sandbox. */
export const behaviorOf = (sender: UmaAddress.UmaAddress): Behavior => {
  const at = sender.lastIndexOf("@")
  const username = sender.slice(1, at)
  const domain = sender.slice(at + 1)
  return domains.includes(domain) ? (magic.get(username) ?? "SUCCESS") : "SUCCESS"
}
