import { Option } from "effect"
import type { UmaAddress } from "../customers/index.js"
import * as SandboxUmaAddresses from "./SandboxUmaAddresses.js"

/**
 * What the sandbox's UMA senders do (`POST /sandbox/uma/receive`), by the sender's address, read as every sandbox
 * UMA address is (`SandboxUmaAddresses.read`: `$<behavior>.<currency>@sandbox.uma.money` or
 * `@sandbox.grid.uma.money`, any currency Payrail knows):
 * - `$success.<currency>@…`: the payment arrives at once (`COMPLETED`);
 * - `$pending.long.<currency>@…`: the payment stays `PENDING` for `pendingDelay`, then completes;
 * - `$fail.compliance.<currency>@…`: the payment is refused by compliance (`FAILED`, `COMPLIANCE_REJECTED`), nothing
 *   is credited;
 * - any other well-formed address: success, as a real sender's payment that clears.
 */
export type Behavior = SandboxUmaAddresses.Behavior

/** How long a `$pending.long.…` payment stays pending: `SandboxUmaAddresses.longPending`, one hour. */
export const pendingDelay = SandboxUmaAddresses.longPending

/** What a payment from `sender` (a normalized address, `UmaAddressInput.normalize`) does in the sandbox. */
export const behaviorOf = (sender: UmaAddress.UmaAddress): Behavior =>
  Option.match(Option.flatten(SandboxUmaAddresses.read(sender)), {
    onNone: () => "SUCCESS",
    onSome: (address) => address.behavior
  })
