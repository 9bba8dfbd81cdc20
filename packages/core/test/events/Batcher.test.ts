import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Scope } from "effect"
import * as Batcher from "../../src/events/internal/Batcher.js"

describe("Batcher", () => {
  it.effect("answers requests from many fibers in order, from fewer runs than requests", () =>
    Effect.gen(function* () {
      const runs: Array<ReadonlyArray<number>> = []
      const double = yield* Batcher.make(
        (requests: ReadonlyArray<number>) =>
          Effect.sync(() => {
            runs.push(requests)
            return requests.map((request) => request * 2)
          }),
        { maxBatchSize: 8 }
      )
      const answers = yield* Effect.forEach(
        Array.from({ length: 20 }, (_, index) => index),
        (request) => double(request),
        { concurrency: "unbounded" }
      )
      expect(answers).toEqual(Array.from({ length: 20 }, (_, index) => index * 2))
      expect(runs.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index))
      expect(runs.every((batch) => batch.length <= 8)).toBe(true)
      expect(runs.length).toBeLessThanOrEqual(4)
    }).pipe(Effect.scoped)
  )

  it.effect("fails every request of a failed batch, and keeps serving later ones", () =>
    Effect.gen(function* () {
      let failing = true
      const echo = yield* Batcher.make(
        (requests: ReadonlyArray<string>) => (failing ? Effect.fail("store down") : Effect.succeed(requests)),
        { maxBatchSize: 64 }
      )
      const failed = yield* Effect.forEach(["a", "b", "c"], (request) => Effect.either(echo(request)), {
        concurrency: "unbounded"
      })
      expect(failed.map((result) => result._tag)).toEqual(["Left", "Left", "Left"])
      failing = false
      expect(yield* echo("d")).toBe("d")
    }).pipe(Effect.scoped)
  )

  it.effect("interrupts the callers of a running batch when its scope closes, rather than leaving them waiting", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const started = yield* Deferred.make<void>()
      const never = yield* Batcher.make(
        (_: ReadonlyArray<number>) => Effect.zipRight(Deferred.succeed(started, undefined), Effect.never),
        { maxBatchSize: 4 }
      ).pipe(Scope.extend(scope))
      const caller = yield* Effect.fork(never(1))
      yield* Deferred.await(started)
      yield* Scope.close(scope, Exit.void)
      const exit = yield* Fiber.await(caller)
      expect(Exit.isInterrupted(exit)).toBe(true)
    })
  )

  it.effect("answers a run that returns too few results with a defect, not a hang", () =>
    Effect.gen(function* () {
      const short = yield* Batcher.make((_: ReadonlyArray<number>) => Effect.succeed([]), { maxBatchSize: 4 })
      const exit = yield* Effect.exit(short(1))
      expect(Exit.isFailure(exit) && !Exit.isInterrupted(exit)).toBe(true)
    }).pipe(Effect.scoped)
  )
})
