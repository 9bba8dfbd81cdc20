import { DateTime, Duration, Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import { DocumentStore } from "./DocumentStore.js"

/**
 * How old a staged document file must be before the purge removes it: an hour, far longer than any upload under
 * the request timeout takes, so a file still streaming in is never removed.
 */
export const retention: Duration.Duration = Duration.hours(1)

/** Removes at most this many staged files per statement. */
export const batchSize = 500

/**
 * Removes the staged document files (of every platform) begun more than `retention` ago and never attached to a
 * document: what a crash between staging and committing left behind. Answers how many it removed; run by the
 * hourly purge job. An attached file is never removed.
 */
export const purge: Effect.Effect<number, StoreFailure.StoreFailure, DocumentStore> = Effect.gen(function* () {
  const store = yield* DocumentStore
  const before = DateTime.subtractDuration(yield* DateTime.now, retention)
  let total = 0
  for (;;) {
    const removed = yield* store.purgeStaged(before, batchSize)
    total += removed
    if (removed < batchSize) return total
  }
}).pipe(Effect.withSpan("DocumentFilePurge.purge"))
