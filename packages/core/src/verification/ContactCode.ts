import { DateTime, Schema } from "effect"
import { Customer } from "../customers/index.js"
import { SchemaClass } from "../kernel/index.js"

/** Wrong codes a contact code takes before it is void and a new one must be requested. */
export const maxFailedAttempts = 5

/** How long a contact code can be confirmed after it was sent. */
export const lifetimeMinutes = 10

/** The code of every sandbox platform (the spec's sandbox value); nothing is sent. */
export const sandboxCode = "123456"

/** Digits of a contact code. */
export const codeLength = 6

/** Which contact of the customer a code verifies. */
export const ContactChannel = Schema.Literal("email", "phone")
export type ContactChannel = typeof ContactChannel.Type

/**
 * The outstanding verification code of one contact of a customer (one per customer and channel; sending a new
 * code replaces the earlier one): the contact it was sent to, a salted SHA-256 of the code (never the code), until
 * when it can be confirmed, and how many wrong codes it took. `id` tells a code from the one that replaced it.
 */
export class ContactCode extends SchemaClass.Class<ContactCode>("ContactCode")({
  id: Schema.String,
  customerId: Customer.CustomerId,
  channel: ContactChannel,
  destination: Schema.String,
  codeDigest: Schema.String,
  expiresAt: Schema.DateTimeUtc,
  failedAttempts: Schema.Int.pipe(Schema.nonNegative())
}) {}

/** Whether the code can still be confirmed at `now`: not expired and fewer than `maxFailedAttempts` wrong codes. */
export const isOpen = (code: ContactCode, now: DateTime.Utc): boolean =>
  DateTime.lessThan(now, code.expiresAt) && code.failedAttempts < maxFailedAttempts
