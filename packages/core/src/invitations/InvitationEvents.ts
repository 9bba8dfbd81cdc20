import { type DateTime, type Effect, Schema } from "effect"
import { DomainEvent, type Ids } from "../kernel/index.js"
import { type Invitation, InvitationView, view } from "./Invitation.js"

/**
 * The invitation webhook (the reference's): `INVITATION.CLAIMED`, sent to the inviting platform when its
 * invitation is claimed, with the invitation as the API shows it (`UmaInvitation`, status `CLAIMED`).
 */
export const InvitationEventType = Schema.Literal("INVITATION.CLAIMED")
export type InvitationEventType = typeof InvitationEventType.Type

const encode = Schema.encodeSync(InvitationView)

/** The event reporting that `invitation` (as claimed) was claimed, for its inviting platform. */
export const claimed = (
  invitation: Invitation,
  now: DateTime.Utc
): Effect.Effect<DomainEvent.DomainEvent, never, Ids.Ids> =>
  DomainEvent.make(invitation.platformId, "INVITATION.CLAIMED", encode(view(invitation, now)))
