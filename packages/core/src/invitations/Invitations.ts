import { Context, DateTime, Effect, Encoding, Layer, Option } from "effect"
import { CustomerRepo } from "../customers/index.js"
import { Ids, InvalidInput, Outbox, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { UmaAddressInput } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import { Invitation, isCode, isExpired, urlFor } from "./Invitation.js"
import {
  InvitationAlreadyClaimed,
  InvitationCancelled,
  InvitationExpired,
  InvitationNotFound,
  InvitationNotOwned,
  InvitationsNotConfigured,
  InvitationUmaAddressInvalid
} from "./InvitationErrors.js"
import * as InvitationEvents from "./InvitationEvents.js"
import { InvitationRepo } from "./InvitationRepo.js"
import type { ClaimInvitationRequest, CreateInvitationRequest } from "./InvitationRequest.js"

/** Why an invitation in its current state refuses a claim or a cancellation. */
type StateRefusal = InvitationAlreadyClaimed | InvitationCancelled | InvitationExpired

/**
 * UMA invitations (docs/invitations.md). A code is found from any platform of the inviting platform's environment
 * (it is shared as a link); only the inviting platform cancels. A claim and its `INVITATION.CLAIMED` event commit
 * in one unit of work, and of concurrent claims of one code exactly one wins.
 */
export class Invitations extends Context.Tag("@payrail/core/Invitations")<
  Invitations,
  {
    /** Issues a `PENDING` invitation from a live customer of `platform` (by its UMA address). */
    readonly create: (
      platform: Platform.Platform,
      request: CreateInvitationRequest
    ) => Effect.Effect<
      Invitation,
      InvitationsNotConfigured | InvitationUmaAddressInvalid | InvalidInput.InvalidInput | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      code: string
    ) => Effect.Effect<Invitation, InvitationNotFound | StoreFailure.StoreFailure>
    /** Claims a `PENDING`, unexpired invitation for `inviteeUma`; the inviting platform gets `INVITATION.CLAIMED`. */
    readonly claim: (
      platform: Platform.Platform,
      code: string,
      request: ClaimInvitationRequest
    ) => Effect.Effect<
      Invitation,
      | InvitationsNotConfigured
      | InvitationUmaAddressInvalid
      | InvitationNotFound
      | StateRefusal
      | StoreFailure.StoreFailure
    >
    /** Cancels a `PENDING`, unexpired invitation of `platform`; it can no longer be claimed. */
    readonly cancel: (
      platform: Platform.Platform,
      code: string
    ) => Effect.Effect<Invitation, InvitationNotFound | InvitationNotOwned | StateRefusal | StoreFailure.StoreFailure>
  }
>() {}

/** Whether the platform can issue and claim invitations: it has an UMA domain. */
export const isConfigured = (platform: Platform.Platform): boolean => platform.config.umaDomain.trim() !== ""

/** The refusal an invitation that is not claimable (or cancellable) at `now` answers, if any. */
export const refusalAt = (invitation: Invitation, now: DateTime.Utc): Option.Option<StateRefusal> => {
  if (invitation.status === "CLAIMED") return Option.some(InvitationAlreadyClaimed.of(invitation.code))
  if (invitation.status === "CANCELLED") return Option.some(InvitationCancelled.of(invitation.code))
  if (isExpired(invitation, now) && invitation.expiresAt !== undefined) {
    return Option.some(InvitationExpired.of(invitation.code, DateTime.formatIso(invitation.expiresAt)))
  }
  return Option.none()
}

export const layer = Layer.effect(
  Invitations,
  Effect.gen(function* () {
    const invitations = yield* InvitationRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const outbox = yield* Outbox.Outbox
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids

    const find = (platform: Platform.Platform, code: string) =>
      Effect.gen(function* () {
        const found = isCode(code) ? yield* invitations.findByCode(code) : Option.none()
        if (Option.isNone(found) || found.value.environment !== platform.environment) {
          return yield* InvitationNotFound.of(code)
        }
        return found.value
      })

    // After a guarded write refused, the invitation as it now is says why (another claim or cancel won the race).
    const refusedNow = (platform: Platform.Platform, code: string, now: DateTime.Utc) =>
      Effect.flatMap(find(platform, code), (current) =>
        Effect.fail(Option.getOrElse(refusalAt(current, now), () => InvitationAlreadyClaimed.of(code)))
      )

    const create = Effect.fn("Invitations.create")(function* (
      platform: Platform.Platform,
      request: CreateInvitationRequest
    ) {
      if (!isConfigured(platform)) return yield* InvitationsNotConfigured.of()
      const inviter = UmaAddressInput.normalize(request.inviterUma)
      if (Option.isNone(inviter)) return yield* InvitationUmaAddressInvalid.of("inviterUma", "malformed")
      const customer = yield* customers.findByUmaAddress(platform.id, inviter.value)
      if (Option.isNone(customer)) return yield* InvitationUmaAddressInvalid.of("inviterUma", "not_a_customer")
      const now = yield* DateTime.now
      if (request.expiresAt !== undefined && !DateTime.lessThan(now, request.expiresAt)) {
        return yield* InvalidInput.InvalidInput.onField("expiresAt", "must be in the future")
      }
      const currency = request.currency ?? platform.config.supportedCurrencies[0]?.currencyCode
      if (request.amountToSend !== undefined && currency === undefined) {
        return yield* InvalidInput.InvalidInput.onField("currency", "required: the platform supports no currency")
      }
      const code = Encoding.encodeHex(yield* ids.randomBytes(16))
      const invitation = new Invitation({
        code,
        platformId: platform.id,
        environment: platform.environment,
        status: "PENDING",
        url: urlFor(platform.config.umaDomain.trim(), code),
        inviterUma: inviter.value,
        ...(request.firstName === undefined ? {} : { firstName: request.firstName }),
        ...(request.amountToSend === undefined || currency === undefined
          ? {}
          : { amountToSend: { amount: request.amountToSend, currency } }),
        ...(request.expiresAt === undefined ? {} : { expiresAt: request.expiresAt }),
        createdAt: now,
        updatedAt: now
      })
      yield* invitations.insert(invitation)
      return invitation
    })

    const claim = Effect.fn("Invitations.claim")(function* (
      platform: Platform.Platform,
      code: string,
      request: ClaimInvitationRequest
    ) {
      if (!isConfigured(platform)) return yield* InvitationsNotConfigured.of()
      const invitee = UmaAddressInput.normalize(request.inviteeUma)
      if (Option.isNone(invitee)) return yield* InvitationUmaAddressInvalid.of("inviteeUma", "malformed")
      const current = yield* find(platform, code)
      const now = yield* DateTime.now
      const refusal = refusalAt(current, now)
      if (Option.isSome(refusal)) return yield* refusal.value
      if (invitee.value === current.inviterUma) {
        return yield* InvitationUmaAddressInvalid.of("inviteeUma", "same_as_inviter")
      }
      return yield* store.transaction(
        Effect.gen(function* () {
          const claimed = yield* invitations.claim({
            code: current.code,
            inviteeUma: invitee.value,
            claimedByPlatformId: platform.id,
            at: now
          })
          if (Option.isNone(claimed)) return yield* refusedNow(platform, code, now)
          const event = yield* Effect.provideService(InvitationEvents.claimed(claimed.value, now), Ids.Ids, ids)
          yield* outbox.append(event)
          return claimed.value
        })
      )
    })

    const cancel = Effect.fn("Invitations.cancel")(function* (platform: Platform.Platform, code: string) {
      const current = yield* find(platform, code)
      if (current.platformId !== platform.id) return yield* InvitationNotOwned.of(code)
      const now = yield* DateTime.now
      const refusal = refusalAt(current, now)
      if (Option.isSome(refusal)) return yield* refusal.value
      const cancelled = yield* store.transaction(
        invitations.cancel({ code: current.code, platformId: platform.id, at: now })
      )
      if (Option.isNone(cancelled)) return yield* refusedNow(platform, code, now)
      return cancelled.value
    })

    return Invitations.of({
      create,
      get: Effect.fn("Invitations.get")(function* (platform, code) {
        return yield* find(platform, code)
      }),
      claim,
      cancel
    })
  })
)
