import { Context, type Effect, type Option } from "effect"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Transaction } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentActionFilter, AgentActionId, AgentActionStatus, StoredAgentAction } from "./AgentAction.js"

/**
 * Storage of agent actions, scoped to one platform. Every write joins the caller's unit of work. Actions are never
 * deleted (they are the audit of what an agent did, also after the agent is deleted).
 */
export class AgentActionRepo extends Context.Tag("@payrail/core/AgentActionRepo")<
  AgentActionRepo,
  {
    readonly insert: (action: StoredAgentAction) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: AgentActionId
    ) => Effect.Effect<Option.Option<StoredAgentAction>, StoreFailure.StoreFailure>
    /** The action about this transaction (an agent's quote execution or transfer), if any: the newest if several. */
    readonly findByTransactionId: (
      platformId: Platform.PlatformId,
      transactionId: Transaction.TransactionId
    ) => Effect.Effect<Option.Option<StoredAgentAction>, StoreFailure.StoreFailure>
    /**
     * A page of the platform's actions matching `filter`, by `(createdAt, id)`: newest first (`desc`, the default)
     * or oldest first (`asc`), with the total.
     */
    readonly list: (
      platformId: Platform.PlatformId,
      filter: AgentActionFilter,
      page: Page.PageRequest,
      sortOrder: "asc" | "desc"
    ) => Effect.Effect<Page.Page<StoredAgentAction>, StoreFailure.StoreFailure>
    /**
     * Replaces the action if its status is still `from` (compare-and-set): of concurrent transitions out of one
     * status exactly one gets `true`.
     */
    readonly transition: (
      from: AgentActionStatus,
      next: StoredAgentAction
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
