import { Context, type DateTime, type Effect, type Option } from "effect"
import type { PlatformId, StoreFailure } from "../kernel/index.js"
import type { Invitation } from "./Invitation.js"

/**
 * UMA invitations by code. A code is unique across the store (it is looked up from any platform of its environment).
 *
 * - `insert` stores a new invitation (a code is inserted once).
 * - `claim` and `cancel` are guarded transitions, each one atomic write: they apply only while the invitation is
 *   `PENDING` and not expired at `at` (`cancel` also only for the inviting platform), and answer the invitation as
 *   written, or `None` when the guard refused. Of N concurrent claims of one code exactly one gets `Some`.
 */
export class InvitationRepo extends Context.Tag("@payrail/core/InvitationRepo")<
  InvitationRepo,
  {
    readonly insert: (invitation: Invitation) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findByCode: (code: string) => Effect.Effect<Option.Option<Invitation>, StoreFailure.StoreFailure>
    readonly claim: (input: {
      readonly code: string
      readonly inviteeUma: string
      readonly claimedByPlatformId: PlatformId.PlatformId
      readonly at: DateTime.Utc
    }) => Effect.Effect<Option.Option<Invitation>, StoreFailure.StoreFailure>
    readonly cancel: (input: {
      readonly code: string
      readonly platformId: PlatformId.PlatformId
      readonly at: DateTime.Utc
    }) => Effect.Effect<Option.Option<Invitation>, StoreFailure.StoreFailure>
  }
>() {}
