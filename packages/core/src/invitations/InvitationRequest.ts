import { Schema } from "effect"
import { Currency, Money } from "../kernel/index.js"

/**
 * `POST /invitations` (the reference's `UmaInvitationCreateRequest`, plus `currency`): `inviterUma` must be the
 * UMA address of a live customer of the platform; `amountToSend` (minor units of `currency`, by default the
 * platform's first supported currency) is shown to the invitee and moves nothing; `expiresAt`, when given, must be
 * in the future. An UMA address is checked by the use case, so a malformed one answers `INVALID_UMA_ADDRESS`.
 */
export const CreateInvitationRequest = Schema.Struct({
  inviterUma: Schema.String,
  firstName: Schema.optional(
    Schema.String.pipe(
      Schema.minLength(1, { description: "at least 1 character" }),
      Schema.maxLength(255, { description: "at most 255 characters" })
    )
  ),
  amountToSend: Schema.optional(Money.PositiveAmountMinor),
  currency: Schema.optional(Currency.CurrencyCode),
  expiresAt: Schema.optional(Schema.DateTimeUtc)
}).annotations({ identifier: "UmaInvitationCreateRequest" })
export type CreateInvitationRequest = typeof CreateInvitationRequest.Type

/** `POST /invitations/{invitationCode}/claim`: the UMA address of the customer claiming it. */
export const ClaimInvitationRequest = Schema.Struct({
  inviteeUma: Schema.String
}).annotations({ identifier: "UmaInvitationClaimRequest" })
export type ClaimInvitationRequest = typeof ClaimInvitationRequest.Type
