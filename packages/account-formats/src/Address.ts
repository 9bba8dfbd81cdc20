import { Schema } from "effect"
import { CountryCode } from "./CountryCode.js"
import { Text } from "./FieldFormat.js"

/** A postal address; `line1`, `postalCode` and `country` are required. */
export const Address = Schema.Struct({
  line1: Text(255),
  line2: Schema.optional(Text(255)),
  city: Schema.optional(Text(100)),
  state: Schema.optional(Text(100)),
  postalCode: Text(20),
  country: CountryCode
}).annotations({ identifier: "Address" })
export type Address = typeof Address.Type
