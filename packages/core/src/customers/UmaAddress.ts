import { Schema } from "effect"

/**
 * An UMA address, `$<username>@<domain>`: lowercase letters, digits and `. _ + -` in a username of 1 to 64
 * characters, then the domain the platform serves UMA on. Customers carry one as the public API's customers do.
 */
export const UmaAddress = Schema.String.pipe(
  Schema.pattern(/^\$[a-z0-9._+-]{1,64}@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/, {
    description: "an UMA address $<username>@<domain> (username: 1-64 of a-z 0-9 . _ + -)"
  }),
  Schema.brand("UmaAddress"),
  Schema.annotations({ identifier: "UmaAddress" })
)
export type UmaAddress = typeof UmaAddress.Type

/**
 * An UMA address as a request gives it: letters in any case, stored and compared in lowercase (UMA addresses are
 * case-insensitive), so `$Ada@Example.com` is `$ada@example.com`.
 */
export const FromInput = Schema.compose(Schema.Lowercase, UmaAddress).annotations({
  identifier: "UmaAddressInput",
  description: "an UMA address $<username>@<domain> (username: 1-64 of a-z 0-9 . _ + -), any letter case"
})

/**
 * The address generated for a customer who brings none: the customer's uuid on the platform's UMA domain. It is
 * unique, never changes, and reveals nothing about the person (no name or email in a payment address).
 */
export const forCustomer = (customerUuid: string, umaDomain: string): UmaAddress =>
  UmaAddress.make(`$${customerUuid.toLowerCase()}@${umaDomain.toLowerCase()}`)
