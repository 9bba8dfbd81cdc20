import { Context, Effect, Layer, Option, Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { Page, type StoreFailure } from "../kernel/index.js"
import { type ApiToken, type ApiTokenId, Permission } from "./ApiToken.js"
import { ApiTokenRepo } from "./ApiTokenRepo.js"
import { CredentialChanges } from "./CredentialChanges.js"
import type { Caller } from "./Caller.js"
import { awaitSeen } from "./CredentialChangeSeen.js"
import { PermissionNotHeld, type PlatformNotFound, TokenNotFound } from "./PlatformErrors.js"
import { type IssuedToken, Platforms } from "./Platforms.js"

/** `POST /tokens`: a name and at least one permission (repeats collapse). Unknown fields are refused. */
export const CreateTokenRequest = Schema.Struct({
  name: FieldFormat.Text(255),
  permissions: Schema.NonEmptyArray(Permission)
}).annotations({ identifier: "CreateApiTokenRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })
export type CreateTokenRequest = typeof CreateTokenRequest.Type

/** The permissions of `requested` that `caller`'s token does not hold. */
export const permissionsNotHeld = (caller: Caller, requested: ReadonlyArray<Permission>): ReadonlyArray<Permission> =>
  [...new Set(requested)].filter((permission) => !caller.token.permissions.includes(permission))

/**
 * The platform API's token management (`/tokens`): everything is scoped to the caller's platform, a token grants
 * at most its own permissions, and a secret exists in clear only in the answer to its creation.
 */
export class ApiTokens extends Context.Tag("@payrail/core/ApiTokens")<
  ApiTokens,
  {
    /** Issues a token on the caller's platform with a subset of the caller's permissions (else 403). */
    readonly create: (
      caller: Caller,
      request: CreateTokenRequest
    ) => Effect.Effect<IssuedToken, PermissionNotHeld | PlatformNotFound | StoreFailure.StoreFailure>
    /** The caller's platform's tokens, newest first, in pages. */
    readonly list: (
      caller: Caller,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<ApiToken>, StoreFailure.StoreFailure>
    readonly get: (caller: Caller, id: ApiTokenId) => Effect.Effect<ApiToken, TokenNotFound | StoreFailure.StoreFailure>
    /**
     * Deletes a token of the caller's platform (the caller's own included): every process sharing the store
     * refuses it from the next request on.
     */
    readonly delete: (
      caller: Caller,
      id: ApiTokenId
    ) => Effect.Effect<ApiToken, TokenNotFound | StoreFailure.StoreFailure>
  }
>() {}

const keyOf = (token: ApiToken): Page.Cursor => ({ createdAt: token.createdAt, id: token.id })

export const layer = Layer.effect(
  ApiTokens,
  Effect.gen(function* () {
    const tokens = yield* ApiTokenRepo
    const platforms = yield* Platforms
    const changes = yield* CredentialChanges
    const found = (id: ApiTokenId) => (token: Option.Option<ApiToken>) =>
      Option.match(token, { onNone: () => Effect.fail(TokenNotFound.of(id)), onSome: Effect.succeed })
    return {
      create: Effect.fn("ApiTokens.create")(function* (caller, request) {
        const missing = permissionsNotHeld(caller, request.permissions)
        if (missing.length > 0) return yield* PermissionNotHeld.of(missing)
        return yield* platforms.issueToken({
          platformId: caller.platform.id,
          name: request.name,
          permissions: request.permissions
        })
      }),
      // A platform holds a handful of tokens: the page is cut from the whole list, in the order of every list.
      list: Effect.fn("ApiTokens.list")(function* (caller, page) {
        const all = [...(yield* tokens.listByPlatform(caller.platform.id))].sort((a, b) =>
          Page.compareNewestFirst(keyOf(a), keyOf(b))
        )
        const after = Option.match(page.after, {
          onNone: () => all,
          onSome: (cursor) => all.filter((token) => Page.isAfter(keyOf(token), cursor))
        })
        return Page.fromOverfetch(after.slice(0, page.limit + 1), page, keyOf, all.length)
      }),
      get: (caller, id) =>
        Effect.withSpan(Effect.flatMap(tokens.findById(caller.platform.id, id), found(id)), "ApiTokens.get"),
      delete: (caller, id) =>
        awaitSeen(tokens.deleteById(caller.platform.id, id), Option.isSome).pipe(
          Effect.flatMap(found(id)),
          Effect.provideService(CredentialChanges, changes),
          Effect.withSpan("ApiTokens.delete")
        )
    }
  })
)
