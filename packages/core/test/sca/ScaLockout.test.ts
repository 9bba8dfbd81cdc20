import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Either, TestClock } from "effect"
import { ScaErrors, ScaLockout, ScaRegions } from "@payrail/core"

const start = DateTime.unsafeMake("2026-01-01T00:00:00Z")
const iso = (at: DateTime.Utc) => DateTime.formatIso(at)

describe("ScaLockout", () => {
  it("walks the whole ladder: 1-4 free, 5 → 15 min, 6 → 30 min, 7 → 1 h, 8 → 24 h, 9 and 10 suspended", () => {
    const expected: ReadonlyArray<Duration.Duration | "none" | "suspended"> = [
      "none",
      "none",
      "none",
      "none",
      Duration.minutes(15),
      Duration.minutes(30),
      Duration.hours(1),
      Duration.hours(24),
      "suspended",
      "suspended"
    ]
    let guard = ScaLockout.fresh("Customer:1")
    let now = start
    expected.forEach((lock, index) => {
      guard = ScaLockout.afterFailure(guard, now)
      expect(guard.failedAttempts).toBe(index + 1)
      if (lock === "none") {
        expect(ScaLockout.isLocked(guard, now)).toBe(false)
        expect(guard.lockedUntil).toBeUndefined()
      } else if (lock === "suspended") {
        expect(guard.suspended).toBe(true)
        expect(guard.lockedUntil).toBeUndefined()
        // Suspended: no automatic end, however long one waits.
        expect(ScaLockout.isLocked(guard, DateTime.add(now, { days: 365 }))).toBe(true)
        expect(ScaLockout.check(guard, now)).toEqual(
          Either.left(ScaErrors.AccountLocked.of({ suspended: true, failedAttempts: index + 1 }))
        )
      } else {
        const until = DateTime.addDuration(now, lock)
        expect(guard.lockedUntil).toEqual(until)
        expect(ScaLockout.isLocked(guard, DateTime.subtract(until, { millis: 1 }))).toBe(true)
        expect(ScaLockout.isLocked(guard, until)).toBe(false)
        const refused = ScaLockout.check(guard, now)
        expect(Either.isLeft(refused) && refused.left.details).toEqual({
          suspended: false,
          lockedUntil: iso(until),
          failedAttempts: index + 1
        })
        // The next failure comes once the lock has ended.
        now = until
      }
    })
  })

  it("a success clears failures and a lock, but not a suspension; a password reset clears everything", () => {
    let guard = ScaLockout.fresh("Customer:1")
    for (let i = 0; i < 5; i++) guard = ScaLockout.afterFailure(guard, start)
    expect(ScaLockout.isLocked(guard, start)).toBe(true)
    const cleared = ScaLockout.afterSuccess(guard)
    expect(cleared.failedAttempts).toBe(0)
    expect(ScaLockout.isLocked(cleared, start)).toBe(false)
    for (let i = 0; i < 9; i++) guard = ScaLockout.afterFailure(guard, DateTime.add(start, { days: 2 }))
    expect(ScaLockout.afterSuccess(guard).suspended).toBe(true)
    expect(ScaLockout.afterPasswordReset(guard)).toEqual(ScaLockout.fresh("Customer:1"))
  })

  it.effect("locks against the Clock: refused until the lock ends, admitted from then on", () =>
    Effect.gen(function* () {
      let guard = ScaLockout.fresh("Customer:1")
      for (let i = 0; i < 5; i++) guard = ScaLockout.afterFailure(guard, yield* DateTime.now)
      expect(Either.isLeft(ScaLockout.check(guard, yield* DateTime.now))).toBe(true)
      yield* TestClock.adjust(Duration.minutes(14))
      expect(Either.isLeft(ScaLockout.check(guard, yield* DateTime.now))).toBe(true)
      yield* TestClock.adjust(Duration.minutes(1))
      expect(Either.isRight(ScaLockout.check(guard, yield* DateTime.now))).toBe(true)
      expect(ScaLockout.view(guard, yield* DateTime.now).lockedUntil).toBeNull()
    })
  )

  it("uses SCA in the EEA and the United Kingdom only", () => {
    for (const code of ["FR", "DE", "IE", "NO", "IS", "LI", "GB"]) expect(ScaRegions.usesSca(code)).toBe(true)
    for (const code of ["US", "CH", "BR", "SG"]) expect(ScaRegions.usesSca(code)).toBe(false)
    expect(ScaRegions.usesSca(undefined)).toBe(false)
    // The 27 EU members, the 3 other EEA states and the United Kingdom.
    expect(ScaRegions.scaRegions.size).toBe(31)
  })
})
