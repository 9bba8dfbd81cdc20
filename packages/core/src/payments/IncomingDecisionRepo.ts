import { Context, type Effect, type Option } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { IncomingDecision } from "./IncomingDecision.js"
import type { TransactionId } from "./Transaction.js"

/**
 * Storage of the platform decisions incoming payments wait for, one per transaction, scoped to one platform: a
 * decision of another platform is never found or decided.
 * - `insert` stores a new decision; a transaction's second one fails with `StoreFailure` and changes nothing.
 * - `decide` is a compare-and-set from `AWAITING`: of concurrent decisions of one payment (an approval racing a
 *   rejection, a webhook reply racing the deadline) exactly one applies, and a unit of work that rolls back undoes it.
 */
export class IncomingDecisionRepo extends Context.Tag("@payrail/core/IncomingDecisionRepo")<
  IncomingDecisionRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      decision: IncomingDecision
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly find: (
      platformId: Platform.PlatformId,
      transactionId: TransactionId
    ) => Effect.Effect<Option.Option<IncomingDecision>, StoreFailure.StoreFailure>
    /** Replaces the decision with `next` if it is still `AWAITING`; answers whether this call decided it. */
    readonly decide: (
      platformId: Platform.PlatformId,
      next: IncomingDecision
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
