import { Effect } from "effect"
import { Migrations } from "@payrail/storage-postgres"
import * as Progress from "./Progress.js"

/**
 * Runs `effect` (one that opens, and so migrates, the store) reporting the migrations it applies on stderr: a line
 * each with its timing when stderr is not a terminal (`migrations: 38/38 (0038_event_feed applied in 12 ms)`), a progress bar on a
 * terminal, and a summary either way. Nothing is printed when the schema was already up to date, or on a store
 * without migrations (memory).
 */
export const withProgress = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    let progress: Progress.Progress | undefined
    let applied = 0
    const result = yield* Effect.provideService(effect, Migrations.MigrationProgress, {
      pending: (count) =>
        count === 0
          ? Effect.void
          : Effect.map(Progress.make("migrations", count, Progress.stderr, { lineEachStep: true }), (made) => {
              progress = made
            }),
      applied: ({ id, millis, name }) =>
        Effect.suspend(() => {
          applied += 1
          return progress === undefined
            ? Effect.void
            : progress.advance(1, `${String(id).padStart(4, "0")}_${name} applied in ${millis} ms`)
        })
    })
    if (progress !== undefined) yield* progress.finish(`${applied} applied`)
    return result
  })
