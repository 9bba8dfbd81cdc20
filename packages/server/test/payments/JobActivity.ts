import type { Context } from "effect"
import { Effect } from "effect"
import type { Jobs } from "@payrail/core"

/**
 * What the job worker is doing, seen from the store's side: claims in progress, jobs claimed and not settled yet,
 * and the failures handlers reported (a retry or a burial records why).
 */
export class JobActivity {
  claiming = 0
  claimed = 0
  readonly held = new Set<string>()
  readonly failures: Array<string> = []

  get busy(): boolean {
    return this.claiming > 0 || this.held.size > 0
  }

  wrap(jobs: Context.Tag.Service<typeof Jobs.Jobs>): Context.Tag.Service<typeof Jobs.Jobs> {
    const release = (ids: ReadonlyArray<string>) => Effect.sync(() => ids.forEach((id) => this.held.delete(id)))
    return {
      ...jobs,
      // Counted from before the claim statement until its jobs are held, so that no claimed job is ever unseen.
      claim: (options) =>
        Effect.suspend(() => {
          this.claiming++
          return jobs.claim(options).pipe(
            Effect.tap((claimed) =>
              Effect.sync(() => {
                this.claimed += claimed.length
                for (const { job } of claimed) this.held.add(job.id)
              })
            ),
            Effect.ensuring(Effect.sync(() => this.claiming--))
          )
        }),
      complete: (claimed) => Effect.ensuring(jobs.complete(claimed), release([claimed.job.id])),
      completeAll: (claimed) => Effect.ensuring(jobs.completeAll(claimed), release(claimed.map(({ job }) => job.id))),
      retry: (claimed, options) =>
        Effect.ensuring(
          Effect.zipRight(
            Effect.sync(() => this.failures.push(`${claimed.job.kind}: ${options.error}`)),
            jobs.retry(claimed, options)
          ),
          release([claimed.job.id])
        ),
      bury: (claimed, error) =>
        Effect.ensuring(
          Effect.zipRight(
            Effect.sync(() => this.failures.push(`${claimed.job.kind} (dead): ${error}`)),
            jobs.bury(claimed, error)
          ),
          release([claimed.job.id])
        ),
      release: (claimed) => Effect.ensuring(jobs.release(claimed), release([claimed.job.id]))
    }
  }
}
