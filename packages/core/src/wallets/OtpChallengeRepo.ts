import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuthMethod } from "../accounts/index.js"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { OtpChallenge } from "./OtpChallenge.js"

/**
 * Storage of open OTP challenges, one per credential, scoped to one platform. `take` is the single-use guard: it
 * removes the challenge only if it is still the one issued at `issuedAt`, so of N concurrent correct answers
 * exactly one gets `true`, and an answer to a challenge replaced meanwhile gets `false`.
 */
export class OtpChallengeRepo extends Context.Tag("@payrail/core/OtpChallengeRepo")<
  OtpChallengeRepo,
  {
    /** Stores the credential's challenge, replacing any earlier one. */
    readonly put: (
      platformId: Platform.PlatformId,
      challenge: OtpChallenge
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly find: (
      platformId: Platform.PlatformId,
      authMethodId: AuthMethod.AuthMethodId
    ) => Effect.Effect<Option.Option<OtpChallenge>, StoreFailure.StoreFailure>
    /** Removes the challenge issued at `issuedAt`; `true` when this call removed it. */
    readonly take: (
      platformId: Platform.PlatformId,
      authMethodId: AuthMethod.AuthMethodId,
      issuedAt: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Removes the credential's challenge, whatever it is (its credential was deleted); joins the unit of work. */
    readonly discard: (
      platformId: Platform.PlatformId,
      authMethodId: AuthMethod.AuthMethodId
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** Counts one wrong answer against the challenge issued at `issuedAt`; the count after it (0 if replaced). */
    readonly recordFailure: (
      platformId: Platform.PlatformId,
      authMethodId: AuthMethod.AuthMethodId,
      issuedAt: DateTime.Utc
    ) => Effect.Effect<number, StoreFailure.StoreFailure>
  }
>() {}
