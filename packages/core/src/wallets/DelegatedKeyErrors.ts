import { Schema } from "effect"

/**
 * No delegated key with this id on the caller's platform. Code `NOT_FOUND` (404), naming the id as `details.id`
 * (the path parameter that carried it).
 */
export class DelegatedKeyNotFound extends Schema.TaggedError<DelegatedKeyNotFound>()("DelegatedKeyNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ id: Schema.String })
}) {
  static of(id: string): DelegatedKeyNotFound {
    return new DelegatedKeyNotFound({ reason: "Delegated key not found", details: { id } })
  }
}

/**
 * The wallet already has a non-revoked delegated key for this card (or, without a card, for the whole wallet):
 * revoke it first, as the reference requires. Code `CONFLICT` (409).
 */
export class DelegatedKeyExists extends Schema.TaggedError<DelegatedKeyExists>()("DelegatedKeyExists", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({
    accountId: Schema.String,
    cardId: Schema.optional(Schema.String),
    rule: Schema.Literal("one_live_key_per_card")
  })
}) {
  static of(accountId: string, cardId: string | undefined): DelegatedKeyExists {
    return new DelegatedKeyExists({
      reason: "The wallet already has a non-revoked delegated key for this card; revoke it before creating another",
      details: { accountId, ...(cardId === undefined ? {} : { cardId }), rule: "one_live_key_per_card" }
    })
  }
}
