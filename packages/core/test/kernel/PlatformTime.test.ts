import { describe, expect, it } from "@effect/vitest"
import { Clock, DateTime, Duration, Effect, TestClock } from "effect"
import { ApiToken, Caller, Platform, PlatformTime, Platforms, SandboxClock } from "@payrail/core"

const millis = DateTime.toEpochMillis
const hour = Duration.hours(1)

const platformAhead = (clockOffsetSeconds: number) =>
  new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "Ahead",
    environment: "SANDBOX",
    config: Platforms.defaultConfig,
    clockOffsetSeconds,
    createdAt: DateTime.unsafeMake(0),
    updatedAt: DateTime.unsafeMake(0)
  })

describe("PlatformTime", () => {
  it.effect("runs an effect an offset ahead: DateTime.now moves, sleeping and real time do not", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_000_000)
      const seen = yield* Effect.all({
        now: DateTime.now,
        nanos: Clock.currentTimeNanos,
        unsafe: Effect.map(Effect.clock, (clock) => clock.unsafeCurrentTimeMillis()),
        offset: PlatformTime.offset,
        real: PlatformTime.realNow,
        realDue: PlatformTime.toRealTime(DateTime.unsafeMake(1_000_000 + 3_600_000 + 5_000))
      }).pipe(PlatformTime.within(hour))
      expect(millis(seen.now)).toBe(1_000_000 + 3_600_000)
      expect(seen.nanos).toBe(BigInt(1_000_000 + 3_600_000) * 1_000_000n)
      // Log lines are stamped with the unsafe reading: real time.
      expect(seen.unsafe).toBe(1_000_000)
      expect(seen.offset).toEqual(hour)
      expect(millis(seen.real)).toBe(1_000_000)
      expect(millis(seen.realDue)).toBe(1_005_000)

      // A sleep under the shifted clock still waits on the TestClock.
      const slept = yield* Effect.fork(Effect.sleep("10 seconds").pipe(PlatformTime.within(hour)))
      yield* TestClock.adjust("10 seconds")
      yield* slept.await
      expect(millis(yield* DateTime.now)).toBe(1_010_000)
    })
  )

  it.effect("adds nested offsets, and a zero offset leaves the clock as it is", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(0)
      const nested = yield* PlatformTime.offset.pipe(
        PlatformTime.within("30 minutes"),
        PlatformTime.within("30 minutes")
      )
      expect(nested).toEqual(hour)
      const base = yield* Effect.clock
      expect(yield* Effect.clock.pipe(PlatformTime.within(Duration.zero))).toBe(base)
    })
  )

  it.effect(
    "reads a request's time from its caller's platform under the caller clock, real time without a caller",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(0)
        const platform = platformAhead(120)
        const caller: Caller.Caller = {
          platform,
          token: new ApiToken.ApiToken({
            id: ApiToken.ApiTokenId.make("ApiToken:00000000-0000-4000-8000-000000000002"),
            platformId: platform.id,
            name: "test",
            clientId: "pk_test",
            secretHash: "a".repeat(64),
            permissions: ["VIEW"],
            createdAt: DateTime.unsafeMake(0)
          })
        }
        const [withCaller, without] = yield* Effect.all([
          DateTime.now.pipe(Effect.provideService(Caller.CurrentCaller, caller)),
          DateTime.now
        ]).pipe(SandboxClock.withCallerTime)
        expect(millis(withCaller)).toBe(120_000)
        expect(millis(without)).toBe(0)
        expect(SandboxClock.viewOf(platformAhead(120), DateTime.unsafeMake(0))).toMatchObject({ offsetSeconds: 120 })
      })
  )
})
