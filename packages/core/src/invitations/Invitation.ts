import { DateTime, Option, Schema } from "effect"
import { Currency, PlatformId, SchemaClass } from "../kernel/index.js"
import { Platform } from "../platforms/index.js"

/**
 * An UMA invitation (docs/invitations.md): a customer of a platform invites someone by sharing a link; whoever
 * claims it names their own UMA address, and the inviting platform hears of it through `INVITATION.CLAIMED`.
 */

/** The invitation's code: 32 lowercase hex digits from 16 random bytes, so it cannot be guessed or enumerated. */
export const InvitationCode = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{32}$/, { description: "an invitation code: 32 lowercase hex digits" }),
  Schema.annotations({ identifier: "InvitationCode" })
)

/** Whether `code` has the form of an invitation code (anything else is simply not found). */
export const isCode = Schema.is(InvitationCode)

/** The statuses of the reference API. `EXPIRED` is never stored: a `PENDING` invitation past `expiresAt` reads so. */
export const InvitationStatus = Schema.Literal("PENDING", "CLAIMED", "EXPIRED", "CANCELLED")
export type InvitationStatus = typeof InvitationStatus.Type

/** What storage keeps as the status: the three states a write can set. */
export const StoredStatus = Schema.Literal("PENDING", "CLAIMED", "CANCELLED")
export type StoredStatus = typeof StoredStatus.Type

/** An amount shown to the invitee: minor units of `currency`. Nothing moves on claim (docs/invitations.md). */
export const AmountToSend = Schema.Struct({ amount: Schema.Int, currency: Currency.CurrencyCode })
export type AmountToSend = typeof AmountToSend.Type

/**
 * An invitation as stored: the inviting platform (and its environment: a code is claimable only from a platform of
 * the same environment), the addresses, the display fields, and the times of each change.
 */
export class Invitation extends SchemaClass.Class<Invitation>("InvitationRecord")({
  code: InvitationCode,
  platformId: PlatformId.PlatformId,
  environment: Platform.Environment,
  status: StoredStatus,
  url: Schema.String,
  inviterUma: Schema.String,
  inviteeUma: Schema.optional(Schema.String),
  firstName: Schema.optional(Schema.String),
  amountToSend: Schema.optional(AmountToSend),
  expiresAt: Schema.optional(Schema.DateTimeUtc),
  claimedByPlatformId: Schema.optional(PlatformId.PlatformId),
  createdAt: Schema.DateTimeUtc,
  claimedAt: Schema.optional(Schema.DateTimeUtc),
  cancelledAt: Schema.optional(Schema.DateTimeUtc),
  updatedAt: Schema.DateTimeUtc
}) {}

/** Whether a `PENDING` invitation has passed its `expiresAt` at `now` (one without `expiresAt` never expires). */
export const isExpired = (invitation: Invitation, now: DateTime.Utc): boolean =>
  invitation.status === "PENDING" && invitation.expiresAt !== undefined && !DateTime.lessThan(now, invitation.expiresAt)

/** The status the API shows at `now`: the stored one, or `EXPIRED` for a pending invitation past its expiry. */
export const statusAt = (invitation: Invitation, now: DateTime.Utc): InvitationStatus =>
  isExpired(invitation, now) ? "EXPIRED" : invitation.status

/** The reference API's `UmaInvitation`: `amountToSend` carries the whole currency object. */
export const InvitationView = Schema.Struct({
  code: Schema.String,
  createdAt: Schema.DateTimeUtc,
  claimedAt: Schema.optional(Schema.DateTimeUtc),
  url: Schema.String,
  expiresAt: Schema.optional(Schema.DateTimeUtc),
  inviterUma: Schema.String,
  inviteeUma: Schema.optional(Schema.String),
  status: InvitationStatus,
  firstName: Schema.optional(Schema.String),
  amountToSend: Schema.optional(Schema.Struct({ amount: Schema.Int, currency: Currency.Currency }))
}).annotations({ identifier: "UmaInvitation" })
export type InvitationView = typeof InvitationView.Type

/** The API's form of `invitation` at `now`. */
export const view = (invitation: Invitation, now: DateTime.Utc): InvitationView => {
  const amount = invitation.amountToSend
  const currency = amount === undefined ? Option.none() : Currency.find(amount.currency)
  return {
    code: invitation.code,
    createdAt: invitation.createdAt,
    ...(invitation.claimedAt === undefined ? {} : { claimedAt: invitation.claimedAt }),
    url: invitation.url,
    ...(invitation.expiresAt === undefined ? {} : { expiresAt: invitation.expiresAt }),
    inviterUma: invitation.inviterUma,
    ...(invitation.inviteeUma === undefined ? {} : { inviteeUma: invitation.inviteeUma }),
    status: statusAt(invitation, now),
    ...(invitation.firstName === undefined ? {} : { firstName: invitation.firstName }),
    ...(amount === undefined || Option.isNone(currency)
      ? {}
      : { amountToSend: { amount: amount.amount, currency: currency.value } })
  }
}

/** The link an invitee opens: `https://<umaDomain>/i/<code>`, on the inviting platform's UMA domain. */
export const urlFor = (umaDomain: string, code: string): string => `https://${umaDomain.toLowerCase()}/i/${code}`
