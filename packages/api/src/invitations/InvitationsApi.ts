import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Invitation, InvitationErrors, InvitationRequest } from "@payrail/core"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { reportFieldErrors } = FieldErrorReport
const { wire } = ErrorBody

/** 404 `INVITATION_NOT_FOUND`: no invitation with this code (in this platform's environment). */
export const InvitationNotFoundBody = wire(InvitationErrors.InvitationNotFound, 404, "No invitation with this code")
/** 400 `INVITATION_ALREADY_CLAIMED`. */
export const InvitationAlreadyClaimedBody = wire(
  InvitationErrors.InvitationAlreadyClaimed,
  400,
  "The invitation has already been claimed"
)
/** 400 `INVITATION_CANCELLED`. */
export const InvitationCancelledBody = wire(InvitationErrors.InvitationCancelled, 400, "The invitation was cancelled")
/** 400 `INVITATION_EXPIRED`: a pending invitation past its `expiresAt`. */
export const InvitationExpiredBody = wire(InvitationErrors.InvitationExpired, 400, "The invitation has expired")
/** 400 `INVITATIONS_NOT_CONFIGURED`: the platform has no `umaDomain`. */
export const InvitationsNotConfiguredBody = wire(
  InvitationErrors.InvitationsNotConfigured,
  400,
  "The platform has no umaDomain configured"
)
/** 400 `INVALID_UMA_ADDRESS` (`details.field`, `details.rule`). */
export const InvitationUmaAddressInvalidBody = wire(
  InvitationErrors.InvitationUmaAddressInvalid,
  400,
  "An UMA address of the request is refused (`details.rule`)"
)
/** 403 `FORBIDDEN`: only the inviting platform cancels its invitation. */
export const InvitationNotOwnedBody = wire(
  InvitationErrors.InvitationNotOwned,
  403,
  "Only the platform that created the invitation can cancel it"
)

/** The path of every single-invitation endpoint: the code as the link carries it (an unknown one is a 404). */
export const InvitationPath = Schema.Struct({ invitationCode: Schema.String })

/** A new invitation, answered with 201 (its own schema, so no other invitation response becomes a 201). */
const CreatedInvitation = Invitation.InvitationView.annotations(HttpApiSchema.annotations({ status: 201 }))

/**
 * UMA invitations (HTTP Basic): a customer invites someone by link; the invitee's platform claims it, and the
 * inviting platform gets `INVITATION.CLAIMED`. Codes are shared between platforms of one environment.
 */
export class InvitationsApi extends HttpApiGroup.make("invitations")
  .add(
    HttpApiEndpoint.post("create", "/invitations")
      .setPayload(reportFieldErrors(InvitationRequest.CreateInvitationRequest))
      .addSuccess(CreatedInvitation)
      .addError(InvitationsNotConfiguredBody)
      .addError(InvitationUmaAddressInvalidBody)
      .annotate(OpenApi.Summary, "Create an UMA invitation")
      .annotate(
        OpenApi.Description,
        "Issues a `PENDING` invitation from a live customer of the platform (`inviterUma`, on the platform's " +
          "`umaDomain`), with an unguessable `code` and the link `url` to share. `amountToSend` (minor units of " +
          "`currency`, by default the platform's first supported currency) is shown to the invitee and moves " +
          "nothing: the inviting platform sends the payment once `INVITATION.CLAIMED` arrives. `expiresAt` must be " +
          "in the future."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/invitations/:invitationCode")
      .setPath(InvitationPath)
      .addSuccess(Invitation.InvitationView)
      .addError(InvitationNotFoundBody)
      .annotate(OpenApi.Summary, "Get an UMA invitation by code")
      .annotate(
        OpenApi.Description,
        "Any platform of the inviting platform's environment reads an invitation by its code. A `PENDING` " +
          "invitation past its `expiresAt` reads `EXPIRED`."
      )
  )
  .add(
    HttpApiEndpoint.post("claim", "/invitations/:invitationCode/claim")
      .setPath(InvitationPath)
      .setPayload(reportFieldErrors(InvitationRequest.ClaimInvitationRequest))
      .addSuccess(Invitation.InvitationView)
      .addError(InvitationNotFoundBody)
      .addError(InvitationAlreadyClaimedBody)
      .addError(InvitationCancelledBody)
      .addError(InvitationExpiredBody)
      .addError(InvitationsNotConfiguredBody)
      .addError(InvitationUmaAddressInvalidBody)
      .annotate(OpenApi.Summary, "Claim an UMA invitation")
      .annotate(
        OpenApi.Description,
        "Claims a `PENDING`, unexpired invitation for `inviteeUma` (not the inviter's own address): it becomes " +
          "`CLAIMED` and the inviting platform gets `INVITATION.CLAIMED` with it. Of concurrent claims exactly " +
          "one succeeds; the others get `INVITATION_ALREADY_CLAIMED`."
      )
  )
  .add(
    HttpApiEndpoint.post("cancel", "/invitations/:invitationCode/cancel")
      .setPath(InvitationPath)
      .addSuccess(Invitation.InvitationView)
      .addError(InvitationNotFoundBody)
      .addError(InvitationNotOwnedBody)
      .addError(InvitationAlreadyClaimedBody)
      .addError(InvitationCancelledBody)
      .addError(InvitationExpiredBody)
      .annotate(OpenApi.Summary, "Cancel an UMA invitation")
      .annotate(
        OpenApi.Description,
        "Cancels a `PENDING`, unexpired invitation; only the platform that created it may (403 otherwise). A " +
          "cancelled invitation can no longer be claimed."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Invitations")
  .annotate(OpenApi.Description, "UMA invitations: invite someone by link, claim, cancel.") {}
