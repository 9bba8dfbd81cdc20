import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentFilter, AgentId, AgentRecord } from "./Agent.js"
import type { StoredDeviceCode } from "./AgentDeviceCode.js"

/**
 * Storage of agents and their device codes, scoped to one platform (another platform's agents are never found,
 * listed or changed); deleted agents are never found either. Every write joins the caller's unit of work.
 */
export class AgentRepo extends Context.Tag("@payrail/core/AgentRepo")<
  AgentRepo,
  {
    /** Stores a new agent (at version 1, no token). */
    readonly insert: (agent: AgentRecord) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: AgentId
    ) => Effect.Effect<Option.Option<AgentRecord>, StoreFailure.StoreFailure>
    /** A newest-first page (by `(createdAt, id)`) of the platform's live agents matching `filter`, with the total. */
    readonly list: (
      platformId: Platform.PlatformId,
      filter: AgentFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<AgentRecord>, StoreFailure.StoreFailure>
    /**
     * Replaces the agent if it is live and still at `expectedVersion` (compare-and-set), storing `next` at
     * `expectedVersion + 1`. Returns whether it applied; `false` means a concurrent change won (or a deletion).
     */
    readonly update: (next: AgentRecord, expectedVersion: number) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * Deletes the agent at `at`: it is never found again, its token stops working at once and its unredeemed
     * device codes are invalidated. Returns whether a live agent was deleted.
     */
    readonly delete: (
      platformId: Platform.PlatformId,
      id: AgentId,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** The live agent whose access token has this hash (any platform: the token names its platform). */
    readonly findByTokenHash: (
      tokenHash: string
    ) => Effect.Effect<Option.Option<AgentRecord>, StoreFailure.StoreFailure>
    /** Stores a new device code after invalidating (at its `createdAt`) every unredeemed code of the same agent. */
    readonly insertDeviceCode: (code: StoredDeviceCode) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** The device code with this hash (any platform: the code is what names it). */
    readonly findDeviceCode: (
      codeHash: string
    ) => Effect.Effect<Option.Option<StoredDeviceCode>, StoreFailure.StoreFailure>
    /**
     * Redeems the device code at `at` if it is unredeemed, not invalidated and unexpired at `at`, and its agent is
     * live and not connected, in one guarded step that also marks the agent connected with `tokenHash` (a new
     * version): of concurrent redeems exactly one gets `true`.
     */
    readonly redeemDeviceCode: (
      codeHash: string,
      tokenHash: string,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
