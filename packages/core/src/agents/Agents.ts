import { Context, type Effect, type Redacted } from "effect"
import type { CustomerErrors } from "../customers/index.js"
import type { InvalidInput, Page, RateLimited, StoreFailure } from "../kernel/index.js"
import type { Platform, PlatformErrors } from "../platforms/index.js"
import type { Agent, AgentFilter, AgentId, CreateAgentRequest, UpdateAgentRequest } from "./Agent.js"
import type { AgentCaller } from "./AgentCaller.js"
import type { AgentDeviceCode, AgentDeviceCodeRedeemResponse, AgentDeviceCodeStatus } from "./AgentDeviceCode.js"
import type { AgentAlreadyConnected, AgentNotFound, DeviceCodeNotFound, DeviceCodeUnusable } from "./AgentErrors.js"
import type { AgentPolicyUpdate } from "./AgentPolicy.js"

/**
 * Agents as the platform manages them, their installation by device code, and the check of their access tokens.
 * Every change commits in one unit of work.
 */
export class Agents extends Context.Tag("@payrail/core/Agents")<
  Agents,
  {
    /**
     * Creates an agent for a live customer of the platform, unconnected and unpaused, with its first device code
     * (shown once; only its hash is stored). 404 for an unknown customer, 410 for a deleted one, 400 for a policy
     * whose accounts are not the customer's internal accounts.
     */
    readonly create: (
      platform: Platform.Platform,
      request: CreateAgentRequest
    ) => Effect.Effect<
      { readonly agent: Agent; readonly deviceCode: AgentDeviceCode },
      | CustomerErrors.CustomerNotFound
      | CustomerErrors.CustomerDeleted
      | InvalidInput.InvalidInput
      | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      id: AgentId
    ) => Effect.Effect<Agent, AgentNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: AgentFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Agent>, StoreFailure.StoreFailure>
    /** Renames and/or pauses or resumes the agent. Pausing keeps its configuration and its pending actions. */
    readonly update: (
      platform: Platform.Platform,
      id: AgentId,
      request: UpdateAgentRequest
    ) => Effect.Effect<Agent, AgentNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure>
    /**
     * Applies a partial policy (see `AgentPolicyUpdate`), effective for the next evaluation. A changed limits
     * currency re-denominates the limits it does not set and the usage, at the current exchange rate.
     */
    readonly updatePolicy: (
      platform: Platform.Platform,
      id: AgentId,
      request: AgentPolicyUpdate
    ) => Effect.Effect<Agent, AgentNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure>
    /** Deletes the agent: its token stops working at once; its actions stay readable to the platform. */
    readonly delete: (
      platform: Platform.Platform,
      id: AgentId
    ) => Effect.Effect<void, AgentNotFound | StoreFailure.StoreFailure>
    /** Issues a new device code, invalidating the agent's unredeemed ones. 409 when the agent is connected. */
    readonly issueDeviceCode: (
      platform: Platform.Platform,
      id: AgentId
    ) => Effect.Effect<AgentDeviceCode, AgentNotFound | AgentAlreadyConnected | StoreFailure.StoreFailure>
    /** Whether the code (of one of the platform's agents) was redeemed; 404 for a code it never issued. */
    readonly deviceCodeStatus: (
      platform: Platform.Platform,
      code: string
    ) => Effect.Effect<AgentDeviceCodeStatus, DeviceCodeNotFound | StoreFailure.StoreFailure>
    /**
     * Redeems a device code (no credentials: the code is the proof): exactly one of concurrent redeemers gets the
     * access token, shown this once. 404 for an unknown code, 400 for a redeemed, expired or replaced one.
     */
    readonly redeem: (
      code: string,
      sourceAddress?: string
    ) => Effect.Effect<
      AgentDeviceCodeRedeemResponse,
      DeviceCodeNotFound | DeviceCodeUnusable | RateLimited.RateLimited | StoreFailure.StoreFailure
    >
    /**
     * The live agent holding this access token and its platform. Every failure is the same 401 `UNAUTHORIZED`; a
     * deleted agent's token fails at once.
     */
    readonly authenticate: (
      accessToken: Redacted.Redacted<string>,
      sourceAddress?: string
    ) => Effect.Effect<
      AgentCaller,
      PlatformErrors.Unauthenticated | RateLimited.RateLimited | StoreFailure.StoreFailure
    >
  }
>() {}
