import { type DateTime, Effect, Layer, Option } from "effect"
import { AuthSession, AuthSessionRepo } from "@payrail/core"
import { insertNew, MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"
import * as SignedRequestRows from "./MemorySignedRequestRepo.js"

interface Row {
  readonly platformId: string
  readonly session: AuthSession.AuthSession
}

const revoked = (session: AuthSession.AuthSession, at: DateTime.Utc) =>
  new AuthSession.AuthSession({ ...session, revokedAt: at, updatedAt: at })

/**
 * `AuthSessionRepo` in memory, with the SQL adapter's rules: an id is inserted once (a second insert fails with
 * `StoreFailure` and changes nothing), every read and write is scoped to the platform, and a revocation checks and
 * sets `revokedAt` (and `updatedAt`) in one atomic step, only on a session active at its time; `revokeConsuming`
 * also consumes the signed request (the `signedRequests` table of `MemorySignedRequestRepo`) in that step, both or
 * neither. Active sessions come back oldest first by `(createdAt, id)`. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<AuthSessionRepo.AuthSessionRepo, never, MemoryState> = Layer.effect(
  AuthSessionRepo.AuthSessionRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("authSessions")
    const requests = state.table<SignedRequestRows.Row>("signedRequests")

    const find = (platformId: string, id: string) =>
      Option.fromNullable(rows.get(id)).pipe(Option.filter((row) => row.platformId === platformId))

    const listActive = (platformId: string, accountId: string, now: DateTime.Utc) =>
      Array.from(rows.values())
        .filter(
          (row) =>
            row.platformId === platformId &&
            row.session.accountId === accountId &&
            AuthSession.isActive(row.session, now)
        )
        .map((row) => row.session)
        .sort((a, b) => a.createdAt.epochMillis - b.createdAt.epochMillis || (a.id < b.id ? -1 : 1))

    return {
      insert: (platformId, session) =>
        insertNew(state, rows, "authSessions.insert", session.id, { platformId, session }),
      findById: (platformId, id) => Effect.sync(() => Option.map(find(platformId, id), (row) => row.session)),
      listActive: (platformId, accountId, now) => Effect.sync(() => listActive(platformId, accountId, now)),
      listActiveBeside: (platformId, id, now) =>
        Effect.sync(() =>
          Option.match(find(platformId, id), {
            onNone: () => [],
            onSome: (row) => listActive(platformId, row.session.accountId, now)
          })
        ),
      revokeConsuming: (platformId, id, requestId, at) =>
        state.write((): readonly [AuthSessionRepo.RevokeConsumingOutcome, () => void] => {
          const request = SignedRequestRows.findRow(requests, platformId, requestId)
          if (Option.isNone(request) || request.value.request.consumedAt !== undefined) {
            return ["requestUsed", () => {}]
          }
          const session = find(platformId, id)
          if (Option.isNone(session) || !AuthSession.isActive(session.value.session, at)) {
            return ["sessionInactive", () => {}]
          }
          const undos = [
            setEntry(requests, requestId, SignedRequestRows.consumedRow(request.value, at)),
            setEntry(rows, id, { platformId, session: revoked(session.value.session, at) })
          ]
          return ["revoked", undoAll(undos)]
        }),
      revoke: (platformId, id, at) =>
        state.write((): readonly [boolean, () => void] => {
          const found = find(platformId, id)
          if (Option.isNone(found) || !AuthSession.isActive(found.value.session, at)) return [false, () => {}]
          return [true, setEntry(rows, id, { platformId, session: revoked(found.value.session, at) })]
        }),
      revokeIssuedBy: (platformId, authMethodId, at) =>
        state.write((): readonly [number, () => void] => {
          const active = Array.from(rows.values()).filter(
            (row) =>
              row.platformId === platformId &&
              row.session.authMethodId === authMethodId &&
              AuthSession.isActive(row.session, at)
          )
          const undos = active.map((row) =>
            setEntry(rows, row.session.id, { platformId, session: revoked(row.session, at) })
          )
          return [active.length, undoAll(undos)]
        })
    }
  })
)
