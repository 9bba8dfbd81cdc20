import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { AgentCaller } from "@payrail/core"
import { Authentication } from "../platforms/index.js"

/**
 * The agent's access token as an HTTP bearer credential (`Authorization: Bearer gat_…`), the reference's
 * `AgentAuth`. Provides the authenticated `CurrentAgent` (the agent and its platform) to handlers. Every agent
 * operation can answer 401 (token missing, wrong, or of a deleted agent) and 429 (failed attempts from one address).
 */
export class AgentAuthentication extends HttpApiMiddleware.Tag<AgentAuthentication>()(
  "@payrail/api/AgentAuthentication",
  {
    failure: Schema.Union(Authentication.UnauthenticatedBody, Authentication.RateLimitedBody),
    provides: AgentCaller.CurrentAgent,
    security: {
      AgentAuth: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(
          OpenApi.Description,
          "Agent access token (`gat_` and 40 hex digits) from `POST /agents/device-codes/{code}/redeem`"
        )
      )
    }
  }
) {}
