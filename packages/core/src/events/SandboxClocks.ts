import { Context, Duration, Effect, Layer, Option } from "effect"
import { FieldError, InvalidInput, PlatformTime, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import {
  CredentialChanges,
  CredentialChangeSeen,
  type Platform,
  PlatformErrors,
  PlatformRepo,
  SandboxClock
} from "../platforms/index.js"
import { Jobs } from "./Jobs.js"

/**
 * Sandbox clocks (`GET /sandbox/clock`, `POST /sandbox/clock/advance`): a sandbox platform's time can be moved
 * forward, never back, so that what waits on time (jobs such as webhook retries, and later expiries and the sandbox's
 * delayed outcomes) happens at once, with timestamps that stay consistent. Production platforms have no clock of
 * their own: both operations fail `SandboxOnly`.
 */
export class SandboxClocks extends Context.Tag("@payrail/core/SandboxClocks")<
  SandboxClocks,
  {
    /** The platform's clock as stored now (not as a credential cache may hold it). */
    readonly current: (
      platform: Platform.Platform
    ) => Effect.Effect<
      SandboxClock.SandboxClockView,
      PlatformErrors.SandboxOnly | PlatformErrors.PlatformNotFound | StoreFailure.StoreFailure
    >
    /**
     * Moves the platform's clock `seconds` ahead and answers it after. In one unit of work the offset grows (concurrent
     * advances add up) and the platform's waiting jobs come due that much sooner, so a job due within the advanced
     * span runs at once. Every process sees the new time on its next request of the platform; this one before it
     * answers. `INVALID_INPUT` naming `seconds` when the clock would run more than
     * `SandboxClock.maxOffsetSeconds` ahead of real time.
     */
    readonly advance: (
      platform: Platform.Platform,
      seconds: number
    ) => Effect.Effect<
      SandboxClock.SandboxClockView,
      | PlatformErrors.SandboxOnly
      | PlatformErrors.PlatformNotFound
      | InvalidInput.InvalidInput
      | StoreFailure.StoreFailure
    >
  }
>() {}

const tooFar = (current: number) =>
  InvalidInput.InvalidInput.withErrors(
    [
      new FieldError.FieldError({
        field: "seconds",
        message: `the clock would run more than ${SandboxClock.maxOffsetSeconds} seconds (100 years) ahead of real time; it is ${current} seconds ahead now`
      })
    ],
    "The sandbox clock cannot move that far"
  )

export const layer = Layer.effect(
  SandboxClocks,
  Effect.gen(function* () {
    const platforms = yield* PlatformRepo.PlatformRepo
    const jobs = yield* Jobs
    const store = yield* UnitOfWork.UnitOfWork
    const changes = yield* CredentialChanges.CredentialChanges

    const sandboxOnly = (platform: Platform.Platform) =>
      platform.environment === "SANDBOX" ? Effect.void : Effect.fail(PlatformErrors.SandboxOnly.of())

    const stored = (platform: Platform.Platform) =>
      Effect.flatMap(
        platforms.findById(platform.id),
        Option.match({
          onNone: () => Effect.fail(PlatformErrors.PlatformNotFound.of(platform.id)),
          onSome: Effect.succeed
        })
      )

    const current = Effect.fn("SandboxClocks.current")(function* (platform: Platform.Platform) {
      yield* sandboxOnly(platform)
      return SandboxClock.viewOf(yield* stored(platform), yield* PlatformTime.realNow)
    })

    const advance = Effect.fn("SandboxClocks.advance")(function* (platform: Platform.Platform, seconds: number) {
      yield* sandboxOnly(platform)
      const moved = store.transaction(
        Effect.gen(function* () {
          const after = yield* platforms.advanceClock(platform.id, seconds, SandboxClock.maxOffsetSeconds)
          if (Option.isNone(after)) {
            const now = yield* stored(platform)
            return yield* Effect.fail(tooFar(now.clockOffsetSeconds))
          }
          yield* jobs.shiftPlatform(platform.id, Duration.seconds(seconds))
          return after.value
        })
      )
      const after = yield* CredentialChangeSeen.awaitSeen(moved, () => true).pipe(
        Effect.provideService(CredentialChanges.CredentialChanges, changes)
      )
      return SandboxClock.viewOf(after, yield* PlatformTime.realNow)
    })

    return { current, advance }
  })
)
