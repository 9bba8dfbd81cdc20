import { Context, Effect } from "effect"
import type { ApiToken, Permission } from "./ApiToken.js"
import { PermissionDenied } from "./PlatformErrors.js"
import type { Platform } from "./Platform.js"

/** Who is calling: an authenticated API token and the platform it belongs to. Every query is scoped to it. */
export interface Caller {
  readonly platform: Platform
  readonly token: ApiToken
}

/** The authenticated caller of the current request, provided by the HTTP layer's authentication. */
export class CurrentCaller extends Context.Tag("@payrail/core/CurrentCaller")<CurrentCaller, Caller>() {}

/** Succeeds with `caller` when its token holds `permission`, else fails with `FORBIDDEN`. */
export const permit = (caller: Caller, permission: Permission): Effect.Effect<Caller, PermissionDenied> =>
  caller.token.permissions.includes(permission) ? Effect.succeed(caller) : Effect.fail(PermissionDenied.of(permission))

/** Succeeds with the current caller when its token holds `permission`, else fails with `FORBIDDEN`. */
export const require = (permission: Permission): Effect.Effect<Caller, PermissionDenied, CurrentCaller> =>
  Effect.flatMap(CurrentCaller, (caller) => permit(caller, permission))
