import { Duration, Option } from "effect"
import { Currency } from "../kernel/index.js"

/** The domains of the spec's sandbox UMA addresses: the documented one and the spec example's. */
export const sandboxDomains: ReadonlySet<string> = new Set(["sandbox.uma.money", "sandbox.grid.uma.money"])

/** What a sandbox address does with a payment sent to it. */
export type Behavior = "SUCCESS" | "PENDING_LONG" | "FAIL_COMPLIANCE"

/** How long a `$pending.long.<currency>` payment stays pending before it completes: 1 hour. */
export const longPending: Duration.Duration = Duration.hours(1)

const behaviors: ReadonlyArray<readonly [prefix: string, behavior: Behavior]> = [
  ["success.", "SUCCESS"],
  ["pending.long.", "PENDING_LONG"],
  ["fail.compliance.", "FAIL_COMPLIANCE"]
]

/** A sandbox address, read: how it behaves and the one currency it receives. */
export interface SandboxAddress {
  readonly behavior: Behavior
  readonly currency: string
}

/**
 * Reads one of the spec's sandbox UMA addresses, `$<behavior>.<currency>@sandbox.uma.money` (or
 * `@sandbox.grid.uma.money`): `success`, `pending.long` or `fail.compliance`, then a currency code Payrail knows
 * (`$success.usd`, `$pending.long.eur`, `$fail.compliance.mxn`...), case-insensitively. `None` for an address of
 * another domain; `Some(None)` for one of a sandbox domain that names no behavior and currency.
 */
export const read = (umaAddress: string): Option.Option<Option.Option<SandboxAddress>> => {
  const address = umaAddress.toLowerCase().replace(/^\$/, "")
  const at = address.lastIndexOf("@")
  if (at < 0 || !sandboxDomains.has(address.slice(at + 1))) return Option.none()
  const user = address.slice(0, at)
  for (const [prefix, behavior] of behaviors) {
    if (!user.startsWith(prefix)) continue
    const code = user.slice(prefix.length).toUpperCase()
    return Option.some(Option.map(Currency.find(code), (currency) => ({ behavior, currency: currency.code })))
  }
  return Option.some(Option.none())
}
