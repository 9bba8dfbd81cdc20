import { Schema } from "effect"
import { CardForm } from "./Card.js"

/** The most `maxSpendPerTransaction` and a simulated amount can be, in minor units (as quotes' locked amounts). */
export const amountMax = 9_000_000_000_000_000

const PositiveAmount = Schema.Int.pipe(Schema.between(1, amountMax))

/**
 * `POST /cards`. Our spec's names (`customerId`, `fundingSource`) and the reference API's (`cardholderId`,
 * `fundingSources`, exactly one element here: a card spends from one internal account) are both accepted; given
 * both, they must agree. A client's `platformCardId` is ignored (our spec: the server generates it), and so is the
 * reference's `threeDSecurePassword` (for EU programs; never stored or logged). Any other field is refused, so a
 * misspelt `maxSpendPerTransaction` cannot issue a card without its limit.
 */
export const CreateCardRequest = Schema.Struct({
  customerId: Schema.optional(Schema.String),
  cardholderId: Schema.optional(Schema.String),
  form: CardForm,
  fundingSource: Schema.optional(Schema.String),
  fundingSources: Schema.optional(Schema.Array(Schema.String)),
  platformCardId: Schema.optional(Schema.String),
  threeDSecurePassword: Schema.optional(Schema.Redacted(Schema.String)),
  maxSpendPerTransaction: Schema.optional(Schema.NullOr(PositiveAmount))
}).annotations({
  identifier: "CreateCardRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type CreateCardRequest = typeof CreateCardRequest.Type

/** The statuses a platform may ask for. */
export const RequestedStatus = Schema.Literal("ACTIVE", "FROZEN", "CLOSED")
export type RequestedStatus = typeof RequestedStatus.Type

/**
 * `PATCH /cards/{id}`: freeze (`FROZEN`), unfreeze (`ACTIVE`), close (`CLOSED`, alone), change of funding source,
 * `maxSpendPerTransaction` (`null` clears it). At least one field. `status` and the reference's `state` are the
 * same field (given both, they must agree); so are `fundingSource` and `fundingSources` (one element). Any other
 * field is refused.
 */
export const UpdateCardRequest = Schema.Struct({
  status: Schema.optional(RequestedStatus),
  state: Schema.optional(RequestedStatus),
  fundingSource: Schema.optional(Schema.String),
  fundingSources: Schema.optional(Schema.Array(Schema.String)),
  maxSpendPerTransaction: Schema.optional(Schema.NullOr(PositiveAmount))
}).annotations({
  identifier: "UpdateCardRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type UpdateCardRequest = typeof UpdateCardRequest.Type
