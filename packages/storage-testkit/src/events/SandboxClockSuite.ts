import { expect } from "@effect/vitest"
import { DateTime, Duration, Effect, Option } from "effect"
import { ApiTokenRepo, Jobs, Platform, PlatformRepo, PlatformTime, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import { at, clean, freshKind, lease, newJob } from "./JobFixtures.js"

const claimAt = (now: DateTime.Utc) => Effect.flatMap(Jobs.Jobs, (jobs) => jobs.claim({ limit: 100, now, lease }))

const limit = 1_000_000

/**
 * Sandbox clocks in the store: a platform's clock offset, which every read of the platform carries and only
 * `advanceClock` changes, and the jobs of the platform, whose due times are given in its time, kept in real time and
 * moved by `shiftPlatform`.
 */
export const register = (it: Methods) => {
  it.effect("advances a platform's clock: advances add up, every read carries the offset, the limit refuses", () =>
    Effect.gen(function* () {
      const repo = yield* PlatformRepo.PlatformRepo
      const tokens = yield* ApiTokenRepo.ApiTokenRepo
      const platform = yield* Fixtures.insertPlatform
      const token = Fixtures.apiToken(platform.id)
      yield* tokens.insert(token)
      expect(platform.clockOffsetSeconds).toBe(0)

      const advanced = yield* Effect.all(
        [repo.advanceClock(platform.id, 60, limit), repo.advanceClock(platform.id, 40, limit)],
        { concurrency: "unbounded" }
      )
      const offsets = advanced.map((found) => Option.getOrThrow(found).clockOffsetSeconds).sort((a, b) => a - b)
      expect(offsets[1]).toBe(100)
      expect([40, 60]).toContain(offsets[0])
      expect(Option.map(yield* repo.findById(platform.id), (found) => found.clockOffsetSeconds)).toEqual(
        Option.some(100)
      )
      expect(
        Option.map(yield* tokens.findWithPlatform(token.clientId), ({ platform: found }) => found.clockOffsetSeconds)
      ).toEqual(Option.some(100))

      // The limit holds on the offset after the advance: nothing changes.
      expect(yield* repo.advanceClock(platform.id, limit - 99, limit)).toEqual(Option.none())
      expect(
        Option.map(yield* repo.advanceClock(platform.id, limit - 100, limit), (found) => found.clockOffsetSeconds)
      ).toEqual(Option.some(limit))
      expect(yield* repo.advanceClock(Fixtures.platform().id, 1, limit)).toEqual(Option.none())
    })
  )

  it.effect("keeps the clock offset through a configuration change made from a platform read before an advance", () =>
    Effect.gen(function* () {
      const repo = yield* PlatformRepo.PlatformRepo
      const platform = yield* Fixtures.insertPlatform
      yield* repo.advanceClock(platform.id, 3600, limit)
      const next = new Platform.Platform({ ...platform, name: "Renamed", updatedAt: Fixtures.at(1000) })
      expect(yield* repo.updateConfig(next, platform.updatedAt)).toBe(true)
      const stored = yield* repo.findById(platform.id)
      expect(Option.map(stored, ({ clockOffsetSeconds, name }) => ({ clockOffsetSeconds, name }))).toEqual(
        Option.some({ clockOffsetSeconds: 3600, name: "Renamed" })
      )
    })
  )

  it.effect("keeps a platform job's due time in real time, claims it with its platform's offset, and shifts it", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const repo = yield* PlatformRepo.PlatformRepo
      const kind = freshKind()
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      yield* repo.advanceClock(platform.id, 600, limit)

      // Enqueued at the platform's time (600 s ahead): due at its 1000 s, real 400 s.
      yield* jobs.enqueue(newJob(kind, at(1000), { platformId: platform.id })).pipe(PlatformTime.within("600 seconds"))
      yield* jobs.enqueue(newJob(kind, at(1000), { platformId: other.id }))
      expect(yield* claimAt(at(399))).toEqual([])

      // The clock moves 100 s further: the platform's job is due 100 s sooner; the other platform's job is not.
      yield* (yield* UnitOfWork.UnitOfWork).transaction(jobs.shiftPlatform(platform.id, Duration.seconds(100)))
      const [claimed, ...rest] = yield* claimAt(at(300))
      expect(rest).toEqual([])
      expect(claimed?.job).toMatchObject({ kind, platformId: platform.id, dueAt: at(300) })
      expect(claimed?.clockOffset).toEqual(Duration.seconds(600))

      // A retry at the platform's 2000 s is due at real 1400 s.
      yield* jobs.retry(claimed!, { dueAt: at(2000), error: "later" }).pipe(PlatformTime.within(claimed!.clockOffset))
      expect((yield* claimAt(at(999))).map(({ job }) => job.platformId)).toEqual([])
      const offsets = (yield* claimAt(at(1400))).map(({ clockOffset, job }) => [job.platformId, clockOffset] as const)
      expect(new Map(offsets)).toEqual(
        new Map([
          [platform.id, Duration.seconds(600)],
          [other.id, Duration.zero]
        ])
      )
    })
  )

  it.effect("shifts nothing when the unit of work that advanced fails", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const kind = freshKind()
      const platform = yield* Fixtures.insertPlatform
      yield* jobs.enqueue(newJob(kind, at(1000), { platformId: platform.id }))
      const failed = yield* (yield* UnitOfWork.UnitOfWork)
        .transaction(
          Effect.zipRight(jobs.shiftPlatform(platform.id, Duration.seconds(900)), Effect.fail("rolled back"))
        )
        .pipe(Effect.flip)
      expect(failed).toBe("rolled back")
      expect(yield* claimAt(at(999))).toEqual([])
      expect((yield* claimAt(at(1000))).map(({ job }) => job.dueAt)).toEqual([at(1000)])
    })
  )
}
