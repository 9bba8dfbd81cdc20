import { Effect, Schema } from "effect"
import { FieldError } from "./FieldError.js"
import { InvalidInput } from "./InvalidInput.js"

// Both parts are non-negative integers below 2^63, what a PostgreSQL `bigint` holds.
const Part = Schema.BigInt.pipe(Schema.betweenBigInt(0n, 2n ** 63n - 1n))

/**
 * A place in a platform's event feed: the events appended after it are those whose (`commit`, `seq`) sorts after
 * its own. `commit` orders events by the unit of work that appended them (on PostgreSQL, the id of its database
 * transaction, so that events become readable in this order); `seq` orders the events of one unit of work. Opaque to
 * callers: read it from a feed and hand it back.
 */
export const OutboxPosition = Schema.Struct({ commit: Part, seq: Part })
export type OutboxPosition = typeof OutboxPosition.Type

/** Before every event: a feed read from here returns the whole history. */
export const start: OutboxPosition = { commit: 0n, seq: 0n }

/** Whether `a` sorts strictly after `b`. */
export const isAfter = (a: OutboxPosition, b: OutboxPosition): boolean =>
  a.commit > b.commit || (a.commit === b.commit && a.seq > b.seq)

// The text form: base64url (unpadded) of the JSON `["<commit>", "<seq>"]`.
const Text = Schema.compose(Schema.StringFromBase64Url, Schema.parseJson(Schema.Tuple(Part, Part)))
const encodeText = Schema.encodeSync(Text)
const decodeText = Schema.decodeUnknown(Text)

/** The opaque text of a position, as the API hands it out. */
export const encode = (position: OutboxPosition): string => encodeText([position.commit, position.seq])

/**
 * Reads a text produced by `encode`; anything else fails with `INVALID_INPUT` naming `field`, so a forged position
 * never reaches the store.
 */
export const decode = (text: string, field: string): Effect.Effect<OutboxPosition, InvalidInput> =>
  decodeText(text).pipe(
    Effect.map(([commit, seq]) => ({ commit, seq })),
    Effect.mapError(() =>
      InvalidInput.withErrors([new FieldError({ field, message: "must be a cursor returned by a previous read" })])
    )
  )
