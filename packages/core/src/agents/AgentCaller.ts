import { Context, Effect } from "effect"
import type { Platform } from "../platforms/index.js"
import type { AgentRecord } from "./Agent.js"
import type { Permission } from "./AgentPolicy.js"
import { AgentPermissionDenied } from "./AgentErrors.js"

/** An authenticated agent: its record (read when its token was checked) and its platform. */
export interface AgentCaller {
  readonly platform: Platform.Platform
  readonly agent: AgentRecord
}

/** The agent calling the current request, provided by the HTTP layer's bearer authentication. */
export class CurrentAgent extends Context.Tag("@payrail/core/CurrentAgent")<CurrentAgent, AgentCaller>() {}

/** Succeeds when the caller's policy grants `permission`, else 403 `FORBIDDEN` (`requires_permission`). */
export const requirePermission = (
  caller: AgentCaller,
  permission: Permission
): Effect.Effect<void, AgentPermissionDenied> =>
  caller.agent.policy.permissions.includes(permission) ? Effect.void : Effect.fail(AgentPermissionDenied.of(permission))

/** Succeeds with the current agent when its policy grants `permission`, else fails with 403 `FORBIDDEN`. */
export const require = (permission: Permission): Effect.Effect<AgentCaller, AgentPermissionDenied, CurrentAgent> =>
  Effect.flatMap(CurrentAgent, (caller) => Effect.as(requirePermission(caller, permission), caller))
