import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Invitation, InvitationRepo, Platform } from "@payrail/core"
import { type Context, DateTime, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record } from "../internal/rows.js"

const Transition = Schema.Struct({
  code: Schema.String,
  patch: Schema.String,
  platformId: Schema.optional(Platform.PlatformId),
  at: Schema.DateTimeUtc
})

/**
 * `InvitationRepo` on the `invitations` table (migration `0033_invitations`).
 *
 * Guarantees: `insert` is one `INSERT` (a second insert of a code fails as `StoreFailure`); `claim` and `cancel`
 * are each one guarded `UPDATE … WHERE status = 'PENDING' AND (expires_at IS NULL OR expires_at > at)` that merges
 * the change into the record and returns it, so of concurrent claims of one code exactly one applies.
 */
export const make: Effect.Effect<
  Context.Tag.Service<InvitationRepo.InvitationRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Invitation.Invitation,
    execute: (invitation) =>
      Effect.flatMap(
        jsonText(invitation),
        (json) =>
          sql`INSERT INTO invitations ${sql.insert({
            code: invitation.code,
            platform_id: invitation.platformId,
            status: invitation.status,
            expires_at: invitation.expiresAt ?? null,
            record: json,
            created_at: invitation.createdAt
          })}`
      )
  })

  const findByCode = SqlSchema.findOne({
    Request: Schema.String,
    Result: record(Invitation.Invitation),
    execute: (code) => sql`SELECT record FROM invitations WHERE code = ${code}`
  })

  const transition = (status: "CLAIMED" | "CANCELLED") =>
    SqlSchema.findOne({
      Request: Transition,
      Result: record(Invitation.Invitation),
      execute: ({ at, code, patch, platformId }) =>
        sql`UPDATE invitations SET status = ${status}, record = record || ${patch}::jsonb
            WHERE code = ${code} AND status = 'PENDING'
              AND (expires_at IS NULL OR expires_at > ${at}::timestamptz)
              ${platformId === undefined ? sql`` : sql`AND platform_id = ${platformId}`}
            RETURNING record`
    })
  const claim = transition("CLAIMED")
  const cancel = transition("CANCELLED")

  const fail = Errors.StoreFailure.wrap
  return InvitationRepo.InvitationRepo.of({
    insert: (invitation) => insert(invitation).pipe(Effect.mapError(fail("invitations.insert"))),
    findByCode: (code) => findByCode(code).pipe(Effect.mapError(fail("invitations.findByCode"))),
    claim: ({ at, claimedByPlatformId, code, inviteeUma }) => {
      const iso = DateTime.formatIso(at)
      const patch = { status: "CLAIMED", inviteeUma, claimedByPlatformId, claimedAt: iso, updatedAt: iso }
      return Effect.flatMap(jsonText(patch), (json) => claim({ code, patch: json, at })).pipe(
        Effect.mapError(fail("invitations.claim"))
      )
    },
    cancel: ({ at, code, platformId }) => {
      const iso = DateTime.formatIso(at)
      const patch = { status: "CANCELLED", cancelledAt: iso, updatedAt: iso }
      return Effect.flatMap(jsonText(patch), (json) => cancel({ code, patch: json, platformId, at })).pipe(
        Effect.mapError(fail("invitations.cancel"))
      )
    }
  })
})

/** Provides `InvitationRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<InvitationRepo.InvitationRepo, never, SqlClient.SqlClient> = Layer.effect(
  InvitationRepo.InvitationRepo,
  make
)
