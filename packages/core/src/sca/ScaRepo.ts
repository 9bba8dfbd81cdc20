import { Context, type Effect, type Option } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { EnrolledFactor } from "./EnrolledFactor.js"
import type { FactorReset } from "./FactorReset.js"
import type { PendingChallenge } from "./PendingChallenge.js"
import type { LoginGuard } from "./ScaLockout.js"

/**
 * Storage of the SCA context, scoped to one platform: customers' factors, outstanding challenges, login guards
 * (failure counters, locks, sessions), factor resets and trusted beneficiaries. `takeChallenge` is the single-use
 * guard: of concurrent takes of one challenge exactly one gets `true`. `recordChallengeFailure` counts every wrong
 * code, concurrent ones too. Writes join the caller's unit of work.
 */
export class ScaRepo extends Context.Tag("@payrail/core/ScaRepo")<
  ScaRepo,
  {
    /** Stores a factor, replacing the one with its id. */
    readonly putFactor: (
      platformId: Platform.PlatformId,
      factor: EnrolledFactor
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** The customer's factors (pending and active), oldest first. */
    readonly listFactors: (
      platformId: Platform.PlatformId,
      customerId: string
    ) => Effect.Effect<ReadonlyArray<EnrolledFactor>, StoreFailure.StoreFailure>
    /** Removes the customer's factor `id`; `true` when this call removed it. */
    readonly deleteFactor: (
      platformId: Platform.PlatformId,
      customerId: string,
      id: string
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Stores a challenge, replacing the one with its id. */
    readonly putChallenge: (
      platformId: Platform.PlatformId,
      challenge: PendingChallenge
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findChallenge: (
      platformId: Platform.PlatformId,
      id: string
    ) => Effect.Effect<Option.Option<PendingChallenge>, StoreFailure.StoreFailure>
    /** The newest challenge of the customer for `purpose` and `subjectId`. */
    readonly findChallengeFor: (
      platformId: Platform.PlatformId,
      customerId: string,
      purpose: PendingChallenge["purpose"],
      subjectId: string
    ) => Effect.Effect<Option.Option<PendingChallenge>, StoreFailure.StoreFailure>
    /** Removes the challenge `id`; `true` when this call removed it. */
    readonly takeChallenge: (
      platformId: Platform.PlatformId,
      id: string
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Counts one wrong code against the challenge `id`; the count after it (0 when it is gone). */
    readonly recordChallengeFailure: (
      platformId: Platform.PlatformId,
      id: string
    ) => Effect.Effect<number, StoreFailure.StoreFailure>
    readonly findGuard: (
      platformId: Platform.PlatformId,
      customerId: string
    ) => Effect.Effect<Option.Option<LoginGuard>, StoreFailure.StoreFailure>
    /** Stores the customer's guard, replacing the earlier one. */
    readonly putGuard: (
      platformId: Platform.PlatformId,
      guard: LoginGuard
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** Stores a reset, replacing the one with its id. */
    readonly putReset: (
      platformId: Platform.PlatformId,
      reset: FactorReset
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findReset: (
      platformId: Platform.PlatformId,
      customerId: string,
      id: string
    ) => Effect.Effect<Option.Option<FactorReset>, StoreFailure.StoreFailure>
    /** Marks the external account a trusted beneficiary of the customer (`trusted`) or not. */
    readonly setTrusted: (
      platformId: Platform.PlatformId,
      customerId: string,
      externalAccountId: string,
      trusted: boolean
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly isTrusted: (
      platformId: Platform.PlatformId,
      externalAccountId: string
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
