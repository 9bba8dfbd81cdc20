import { Array as Arr, Chunk, Deferred, Effect, Exit, Option, Queue, type Scope } from "effect"

/**
 * Gathers the requests that concurrent fibers make into batches, so that a store answers many with one statement:
 * `run` is called with up to `maxBatchSize` requests at a time (those that arrived while earlier batches ran, so a
 * lone request is not held back), at most `concurrency` batches at once, and must answer one result per request, in
 * order. A failure of `run` fails every request of its batch; a request whose caller is interrupted still runs.
 * The batching fibers live as long as `scope` (Effect's request batching groups only the requests of one fiber's
 * `forEach`; these come from independent fibers, such as a job worker's handlers).
 */
export const make = <A, B, E>(
  run: (requests: Arr.NonEmptyReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, E>,
  options: { readonly maxBatchSize: number; readonly concurrency?: number }
): Effect.Effect<(request: A) => Effect.Effect<B, E>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const pending = yield* Queue.unbounded<readonly [A, Deferred.Deferred<B, E>]>()
    yield* Effect.addFinalizer(() => Queue.shutdown(pending))
    const maxBatchSize = Math.max(1, options.maxBatchSize)
    // Requests taken are answered whatever happens: only the wait for the first request and `run` itself can be
    // interrupted (the batcher's scope closing), and an interrupted `run` interrupts its waiting callers rather than
    // leaving them waiting forever. After the first request the fibers ready to run are let run before the batch is
    // closed, so fibers started together (a worker's claim) share one batch rather than the first going alone.
    const serve = Effect.uninterruptibleMask((restore) =>
      restore(Queue.take(pending)).pipe(
        Effect.tap(() => Effect.yieldNow()),
        Effect.flatMap((first) =>
          Effect.map(Queue.takeUpTo(pending, maxBatchSize - 1), (rest) => [first, ...Chunk.toReadonlyArray(rest)])
        ),
        Effect.flatMap((batch) => {
          const requests = Arr.map(batch, ([request]) => request)
          if (!Arr.isNonEmptyReadonlyArray(requests)) return Effect.void
          return Effect.flatMap(Effect.exit(restore(Effect.suspend(() => run(requests)))), (exit) =>
            Effect.forEach(
              batch,
              ([, done], index) =>
                Deferred.done(
                  done,
                  Exit.flatMap(exit, (results) =>
                    Option.match(Arr.get(results, index), {
                      onSome: Exit.succeed,
                      onNone: () =>
                        Exit.die(new Error(`a batch of ${batch.length} requests got ${results.length} results`))
                    })
                  )
                ),
              { discard: true }
            )
          )
        })
      )
    ).pipe(Effect.forever)
    for (let worker = 0; worker < Math.max(1, options.concurrency ?? 1); worker++) {
      yield* Effect.forkScoped(serve)
    }
    return (request: A) =>
      Effect.flatMap(Deferred.make<B, E>(), (done) =>
        Effect.zipRight(Queue.offer(pending, [request, done]), Deferred.await(done))
      )
  })
