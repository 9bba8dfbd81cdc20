import { randomUUID } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import { CredentialChanges } from "@payrail/core"
import { Deferred, Duration, Effect, Fiber, Layer, Option, Schedule, Stream } from "effect"

/** The channel migration 0011 notifies on every change to `api_tokens` and `platforms`. */
export const channel = "payrail_credentials"

/** How often the listening connection proves it still receives notifications, and how long a proof may take. */
export const heartbeat = { every: Duration.seconds(2), within: Duration.seconds(1) }

const probePrefix = "probe:"

/**
 * `CredentialChanges` on a PostgreSQL server: a dedicated connection `LISTEN`s on `payrail_credentials`, so a change
 * committed by any process (another server, the CLI, a manual `DELETE`) is seen by every server when it commits.
 *
 * The version is some only while the listener is known to work: after subscribing, and then every
 * `heartbeat.every`, it sends itself a notification through the pool and waits for it on the listening
 * connection. Until the first one arrives, or once one is late, the version is none (callers must not cache);
 * the subscription is then rebuilt on a new connection with backoff, and the version moves on, so nothing cached
 * before the gap is trusted after it.
 */
export const layer: Layer.Layer<CredentialChanges.CredentialChanges, never, PgClient.PgClient> = Layer.scoped(
  CredentialChanges.CredentialChanges,
  Effect.gen(function* () {
    const pg = yield* PgClient.PgClient
    const instance = `${probePrefix}${randomUUID()}:`
    let version = 0
    let live = false
    let probes = 0
    const pending = new Map<string, Deferred.Deferred<void>>()

    const received = (payload: string) =>
      Effect.suspend(() => {
        if (!payload.startsWith(probePrefix)) {
          version++
          return Effect.void
        }
        const probe = pending.get(payload)
        return probe === undefined ? Effect.void : Deferred.succeed(probe, undefined)
      })

    // One notification sent through the pool and received on the listening connection, in time.
    const probe = Effect.gen(function* () {
      const payload = `${instance}${probes++}`
      const arrived = yield* Deferred.make<void>()
      pending.set(payload, arrived)
      // Not `pg.notify`: it sends `NOTIFY channel, $1`, which PostgreSQL refuses (NOTIFY takes no parameters).
      // The statement runs uninterruptibly: interrupted in flight (a CLI command ending while the first probe is
      // out), its pooled connection was never given back and closing the pool waited for it forever.
      return yield* Effect.uninterruptible(pg`SELECT pg_notify(${channel}, ${payload})`).pipe(
        Effect.zipRight(Deferred.await(arrived)),
        Effect.timeoutFail({ duration: heartbeat.within, onTimeout: () => "notification late" as const }),
        Effect.ensuring(Effect.sync(() => pending.delete(payload)))
      )
    })

    const listening = Effect.scoped(
      Effect.gen(function* () {
        const listener = yield* Stream.runForEach(pg.listen(channel), received).pipe(Effect.forkScoped)
        // LISTEN runs once the stream starts: keep probing until a notification makes the round trip.
        yield* probe.pipe(Effect.retry(Schedule.spaced(Duration.millis(100)).pipe(Schedule.upTo(Duration.seconds(10)))))
        version++
        live = true
        // Then prove it periodically; the first failure (or the listener ending) drops out of this scope.
        yield* Effect.raceFirst(
          Effect.forever(Effect.zipRight(Effect.sleep(heartbeat.every), probe)),
          Fiber.join(listener).pipe(Effect.zipRight(Effect.fail("listener ended" as const)))
        )
      })
    ).pipe(
      Effect.ensuring(
        Effect.sync(() => {
          live = false
          version++
        })
      )
    )

    yield* listening.pipe(
      Effect.retry(
        Schedule.exponential(Duration.millis(100)).pipe(Schedule.union(Schedule.spaced(Duration.seconds(5))))
      ),
      Effect.catchAllCause(Effect.logDebug),
      Effect.forkScoped
    )

    return { version: Effect.sync(() => (live ? Option.some(version) : Option.none())) }
  })
)
