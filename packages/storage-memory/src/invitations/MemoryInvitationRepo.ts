import { DateTime, Effect, Layer, Option } from "effect"
import { Invitation, InvitationRepo } from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"

const pendingAt = (invitation: Invitation.Invitation, at: DateTime.Utc): boolean =>
  invitation.status === "PENDING" && (invitation.expiresAt === undefined || DateTime.lessThan(at, invitation.expiresAt))

/**
 * `InvitationRepo` in memory, with the SQL adapter's rules: a code is inserted once; `claim` and `cancel` each
 * check their guard and write in one synchronous step, so of concurrent claims exactly one applies.
 */
export const layer: Layer.Layer<InvitationRepo.InvitationRepo, never, MemoryState> = Layer.effect(
  InvitationRepo.InvitationRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Invitation.Invitation>("invitations")
    const transition = (
      code: string,
      allowed: (row: Invitation.Invitation) => boolean,
      next: (row: Invitation.Invitation) => Invitation.Invitation
    ) =>
      state.write((): readonly [Option.Option<Invitation.Invitation>, () => void] => {
        const row = rows.get(code)
        if (row === undefined || !allowed(row)) return [Option.none(), () => {}]
        const written = next(row)
        return [Option.some(written), setEntry(rows, code, written)]
      })
    return InvitationRepo.InvitationRepo.of({
      insert: (invitation) => insertNew(state, rows, "invitations.insert", invitation.code, invitation),
      findByCode: (code) => Effect.sync(() => Option.fromNullable(rows.get(code))),
      claim: ({ at, claimedByPlatformId, code, inviteeUma }) =>
        transition(
          code,
          (row) => pendingAt(row, at),
          (row) =>
            new Invitation.Invitation({
              ...row,
              status: "CLAIMED",
              inviteeUma,
              claimedByPlatformId,
              claimedAt: at,
              updatedAt: at
            })
        ),
      cancel: ({ at, code, platformId }) =>
        transition(
          code,
          (row) => row.platformId === platformId && pendingAt(row, at),
          (row) => new Invitation.Invitation({ ...row, status: "CANCELLED", cancelledAt: at, updatedAt: at })
        )
    })
  })
)
