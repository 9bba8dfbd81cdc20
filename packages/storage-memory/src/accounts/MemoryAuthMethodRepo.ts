import { Effect, Layer, Option } from "effect"
import { AuthMethod, AuthMethodRepo, Errors } from "@payrail/core"
import { MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly method: AuthMethod.AuthMethod
}

const sameOauth = (a: AuthMethod.OauthIdentity | undefined, b: AuthMethod.OauthIdentity | undefined): boolean =>
  a !== undefined && b !== undefined && a.issuer === b.issuer && a.audience === b.audience && a.subject === b.subject

// Whether `method`, stored on `platformId`, breaks a uniqueness rule of the port against `row`.
const clashes = (row: Row, platformId: string, method: AuthMethod.AuthMethod): boolean => {
  if (row.platformId !== platformId || row.method.type !== method.type) return false
  switch (method.type) {
    case "PASSKEY":
      return method.credentialId !== undefined && row.method.credentialId === method.credentialId
    case "OAUTH":
      return row.method.accountId === method.accountId && sameOauth(row.method.oauth, method.oauth)
    case "EMAIL_OTP":
    case "SMS_OTP":
      return row.method.accountId === method.accountId
  }
}

/**
 * `AuthMethodRepo` in memory, with the SQL adapter's rules: every read and write is scoped to the platform; the
 * uniqueness rules are checked in the same atomic step as the write (`insert` and `insertAll` of a credential
 * breaking one, or of an id already stored, fail with `StoreFailure` and change nothing; `insertUnique` answers
 * `duplicate`); `deleteUnlessLast` counts and deletes in one step. An account's credentials come back oldest first
 * by `(createdAt, id)`. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<AuthMethodRepo.AuthMethodRepo, never, MemoryState> = Layer.effect(
  AuthMethodRepo.AuthMethodRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("authMethods")

    const taken = (platformId: string, method: AuthMethod.AuthMethod, others: ReadonlyArray<Row>) =>
      [...rows.values(), ...others].some((row) => clashes(row, platformId, method))

    const insertAll = (operation: string, platformId: string, methods: ReadonlyArray<AuthMethod.AuthMethod>) =>
      Effect.flatten(
        state.write<Effect.Effect<void, Errors.StoreFailure>>(() => {
          const accepted: Array<Row> = []
          for (const method of methods) {
            if (rows.has(method.id) || accepted.some((row) => row.method.id === method.id)) {
              return [Effect.fail(Errors.StoreFailure.of(operation, "duplicate id")), () => {}]
            }
            if (taken(platformId, method, accepted)) {
              return [Effect.fail(Errors.StoreFailure.of(operation, "duplicate credential")), () => {}]
            }
            accepted.push({ platformId, method })
          }
          return [Effect.void, undoAll(accepted.map((row) => setEntry(rows, row.method.id, row)))]
        })
      )

    const find = (platformId: string, id: string) =>
      Option.fromNullable(rows.get(id)).pipe(Option.filter((row) => row.platformId === platformId))

    // Replaces the stored credential `id` of the platform with `update(method)` when `update` answers one.
    const update = (
      platformId: string,
      id: string,
      change: (method: AuthMethod.AuthMethod) => Option.Option<AuthMethod.AuthMethod>
    ) =>
      state.write((): readonly [boolean, () => void] => {
        const next = Option.flatMap(find(platformId, id), (row) => change(row.method))
        return Option.isSome(next) ? [true, setEntry(rows, id, { platformId, method: next.value })] : [false, () => {}]
      })

    return {
      insert: (platformId, method) => insertAll("authMethods.insert", platformId, [method]),
      insertAll: (platformId, methods) => insertAll("authMethods.insertAll", platformId, methods),
      insertUnique: (platformId, method) =>
        Effect.flatten(
          state.write<Effect.Effect<AuthMethodRepo.InsertOutcome, Errors.StoreFailure>>(() =>
            rows.has(method.id)
              ? [Effect.fail(Errors.StoreFailure.of("authMethods.insertUnique", "duplicate id")), () => {}]
              : taken(platformId, method, [])
                ? [Effect.succeed("duplicate"), () => {}]
                : [Effect.succeed("inserted"), setEntry(rows, method.id, { platformId, method })]
          )
        ),
      findById: (platformId, id) => Effect.sync(() => Option.map(find(platformId, id), (row) => row.method)),
      listByAccount: (platformId, accountId) =>
        Effect.sync(() =>
          Array.from(rows.values())
            .filter((row) => row.platformId === platformId && row.method.accountId === accountId)
            .map((row) => row.method)
            .sort((a, b) => a.createdAt.epochMillis - b.createdAt.epochMillis || (a.id < b.id ? -1 : 1))
        ),
      deleteUnlessLast: (platformId, accountId, id) =>
        state.write((): readonly [AuthMethodRepo.DeleteOutcome, () => void] => {
          const found = find(platformId, id)
          if (Option.isNone(found) || found.value.method.accountId !== accountId) return ["missing", () => {}]
          const count = Array.from(rows.values()).filter(
            (row) => row.platformId === platformId && row.method.accountId === accountId
          ).length
          return count > 1 ? ["deleted", removeEntry(rows, id)] : ["last", () => {}]
        }),
      advancePasskeyCounter: (platformId, id, from, to, at) =>
        update(platformId, id, (method) =>
          method.type === "PASSKEY" && method.passkey !== undefined && method.passkey.counter === from
            ? Option.some(
                new AuthMethod.AuthMethod({ ...method, passkey: { ...method.passkey, counter: to }, updatedAt: at })
              )
            : Option.none()
        ),
      rename: (platformId, id, nickname, at) =>
        update(platformId, id, (method) =>
          Option.some(new AuthMethod.AuthMethod({ ...method, nickname, updatedAt: at }))
        )
    }
  })
)
