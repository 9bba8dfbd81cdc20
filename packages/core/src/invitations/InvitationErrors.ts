import { Schema } from "effect"

/**
 * Failures of UMA invitations, with the spec's codes. One constructor each (`of`), so no call site spells out a code
 * or reason; the HTTP status is attached by `@payrail/api` (in brackets here).
 */

/** No invitation with this code, or one of a platform of the other environment [404]. */
export class InvitationNotFound extends Schema.TaggedError<InvitationNotFound>()("InvitationNotFound", {
  code: Schema.tag("INVITATION_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ invitationCode: Schema.String })
}) {
  static of(invitationCode: string): InvitationNotFound {
    return new InvitationNotFound({ reason: "Invitation not found", details: { invitationCode } })
  }
}

/** The invitation was claimed already (by this claimant or another) [400]. */
export class InvitationAlreadyClaimed extends Schema.TaggedError<InvitationAlreadyClaimed>()(
  "InvitationAlreadyClaimed",
  {
    code: Schema.tag("INVITATION_ALREADY_CLAIMED"),
    reason: Schema.String,
    details: Schema.Struct({ invitationCode: Schema.String })
  }
) {
  static of(invitationCode: string): InvitationAlreadyClaimed {
    return new InvitationAlreadyClaimed({
      reason: "The invitation has already been claimed",
      details: { invitationCode }
    })
  }
}

/** The inviting platform cancelled the invitation [400]. */
export class InvitationCancelled extends Schema.TaggedError<InvitationCancelled>()("InvitationCancelled", {
  code: Schema.tag("INVITATION_CANCELLED"),
  reason: Schema.String,
  details: Schema.Struct({ invitationCode: Schema.String })
}) {
  static of(invitationCode: string): InvitationCancelled {
    return new InvitationCancelled({ reason: "The invitation has been cancelled", details: { invitationCode } })
  }
}

/** The invitation passed its `expiresAt` while pending: it can be neither claimed nor cancelled [400]. */
export class InvitationExpired extends Schema.TaggedError<InvitationExpired>()("InvitationExpired", {
  code: Schema.tag("INVITATION_EXPIRED"),
  reason: Schema.String,
  details: Schema.Struct({ invitationCode: Schema.String, expiresAt: Schema.String })
}) {
  static of(invitationCode: string, expiresAt: string): InvitationExpired {
    return new InvitationExpired({
      reason: `The invitation expired at ${expiresAt}`,
      details: { invitationCode, expiresAt }
    })
  }
}

/** The platform has no `umaDomain` in its configuration, so it can neither issue nor claim invitations [400]. */
export class InvitationsNotConfigured extends Schema.TaggedError<InvitationsNotConfigured>()(
  "InvitationsNotConfigured",
  {
    code: Schema.tag("INVITATIONS_NOT_CONFIGURED"),
    reason: Schema.String,
    details: Schema.Struct({ rule: Schema.Literal("uma_domain_not_configured") })
  }
) {
  static of(): InvitationsNotConfigured {
    return new InvitationsNotConfigured({
      reason: "Invitations need an umaDomain in the platform's configuration (PATCH /config)",
      details: { rule: "uma_domain_not_configured" }
    })
  }
}

/** Why an UMA address of an invitation request is refused. */
export const UmaAddressRule = Schema.Literal("malformed", "not_a_customer", "same_as_inviter")
export type UmaAddressRule = typeof UmaAddressRule.Type

const umaReasons: { readonly [R in UmaAddressRule]: (field: string) => string } = {
  malformed: (field) => `${field} is not an UMA address: expected $<username>@<domain>`,
  not_a_customer: (field) => `${field} is not the UMA address of a live customer of this platform`,
  same_as_inviter: (field) => `${field} is the inviter's own UMA address`
}

/**
 * An UMA address of the request is refused [400]: malformed, the inviter is not a live customer of the platform, or
 * the invitee is the inviter. `details.field` names the field, `details.rule` the reason.
 */
export class InvitationUmaAddressInvalid extends Schema.TaggedError<InvitationUmaAddressInvalid>()(
  "InvitationUmaAddressInvalid",
  {
    code: Schema.tag("INVALID_UMA_ADDRESS"),
    reason: Schema.String,
    details: Schema.Struct({ field: Schema.String, rule: UmaAddressRule })
  }
) {
  static of(field: string, rule: UmaAddressRule): InvitationUmaAddressInvalid {
    return new InvitationUmaAddressInvalid({ reason: umaReasons[rule](field), details: { field, rule } })
  }
}

/** Only the platform that created an invitation may cancel it [403]. */
export class InvitationNotOwned extends Schema.TaggedError<InvitationNotOwned>()("InvitationNotOwned", {
  code: Schema.tag("FORBIDDEN"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("not_inviting_platform"), invitationCode: Schema.String })
}) {
  static of(invitationCode: string): InvitationNotOwned {
    return new InvitationNotOwned({
      reason: "Only the platform that created the invitation can cancel it",
      details: { rule: "not_inviting_platform", invitationCode }
    })
  }
}
