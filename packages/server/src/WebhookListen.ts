import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Clock, Console, Data, DateTime, Duration, Effect, Option, Redacted, Ref, Schedule, Schema } from "effect"
import { Ids, WebhookEnvelope, WebhookSecret } from "@payrail/core"
import { WebhooksApi } from "@payrail/api"
import * as ApiCall from "./ApiCall.js"
import * as NodeWebhookSigner from "./webhooks/NodeWebhookSigner.js"

/** What `payrail webhooks listen` needs to know. */
export interface Settings extends ApiCall.Target {
  /** Where each event is posted. */
  readonly forwardTo: string
  /** The `whsec_…` secret forwarded webhooks are signed with; none: a new one for this session, printed once. */
  readonly secret: Option.Option<Redacted.Redacted<string>>
  /** The pause between two reads of the feed that found nothing new. */
  readonly pollInterval: Duration.Duration
}

/** The server refused the credentials or their permission: retrying cannot help. */
export class ListenRefused extends Data.TaggedError("ListenRefused")<{
  readonly status: number
  readonly body: string
}> {
  override get message() {
    return this.status === 401
      ? "the server refused the credentials (401); check --client-id and --client-secret (or PAYRAIL_CLIENT_ID and PAYRAIL_CLIENT_SECRET)"
      : `the server answered ${this.status} to GET /webhooks/events (the token needs the VIEW permission): ${this.body}`
  }
}

/** The server could not be read (not running, restarting, answering 5xx): the listener waits and reads again. */
class Unreachable extends Data.TaggedError("Unreachable")<{ readonly reason: string }> {}

const decodeFeed = Schema.decodeUnknown(WebhooksApi.EventFeedResponse)
type FeedPage = typeof WebhooksApi.EventFeedResponse.Type

// A run remembers this many forwarded ids (the oldest are forgotten first) to never forward one twice.
const rememberedIds = 100_000

// Reconnecting: quickly at first, then every 5 seconds while the server stays away.
const reconnect = Schedule.exponential(Duration.millis(200), 2).pipe(
  Schedule.union(Schedule.spaced(Duration.seconds(5))),
  Schedule.whileInput((failure: Unreachable | ListenRefused) => failure._tag === "Unreachable")
)

/** One line per forwarded event: when, what, which, the local answer and how long it took. */
export const deliveryLine = (entry: {
  readonly at: DateTime.Utc
  readonly type: string
  readonly id: string
  readonly outcome: string
  readonly latencyMillis: number
}): string =>
  `${DateTime.formatIso(entry.at)}  ${entry.type}  ${entry.id}  -> ${entry.outcome}  ${entry.latencyMillis} ms`

/**
 * Follows the platform's events on a running server (`GET /webhooks/events`, read from a cursor) and posts each, in
 * order, to `forwardTo`, signed as the server signs real deliveries (Standard Webhooks headers over the same
 * envelope bytes, by `NodeWebhookSigner`) with the session's secret, printing one line per delivery. Starts from
 * "now"; while the server is unreachable it waits and resumes from the last event it read, so a restart loses and
 * repeats nothing; an event id is forwarded at most once per run. Runs until interrupted (Ctrl-C); fails only when
 * the server refuses the credentials. A local endpoint's answer or failure is printed, never retried.
 */
export const listen = (settings: Settings): Effect.Effect<void, ListenRefused> =>
  Effect.gen(function* () {
    const api = ApiCall.baseUrl(settings)
    const secret = Option.isSome(settings.secret)
      ? settings.secret.value
      : yield* WebhookSecret.generate.pipe(Effect.provide(Ids.layer))
    const signer = NodeWebhookSigner.make(1)
    const client = yield* ApiCall.authenticated(settings)
    const outage = yield* Ref.make(Option.none<string>())

    // One read of the feed; `Unreachable` for anything that waiting may cure, `ListenRefused` otherwise.
    const readOnce = (after: Option.Option<string>): Effect.Effect<FeedPage, Unreachable | ListenRefused> =>
      Effect.gen(function* () {
        const response = yield* client
          .get(`${api}/webhooks/events`, {
            urlParams: Option.match(after, { onNone: () => ({}), onSome: (cursor) => ({ after: cursor }) })
          })
          .pipe(
            Effect.timeout(Duration.seconds(30)),
            Effect.mapError((failure) => new Unreachable({ reason: failure.message }))
          )
        if (response.status === 401 || response.status === 403) {
          const body = yield* Effect.orElseSucceed(response.text, () => "")
          return yield* new ListenRefused({ status: response.status, body })
        }
        if (response.status !== 200) return yield* new Unreachable({ reason: `answered ${response.status}` })
        return yield* response.json.pipe(
          Effect.flatMap(decodeFeed),
          Effect.mapError((failure) => new Unreachable({ reason: `unexpected answer: ${failure.message}` }))
        )
      })

    const read = (after: Option.Option<string>) =>
      readOnce(after).pipe(
        Effect.tapError((failure) =>
          failure._tag === "Unreachable"
            ? Effect.flatMap(Ref.getAndSet(outage, Option.some(failure.reason)), (before) =>
                Option.isNone(before)
                  ? Console.log(`${api} is unreachable (${failure.reason}); reconnecting…`)
                  : Effect.void
              )
            : Effect.void
        ),
        Effect.retry(reconnect),
        // The schedule retries an unreachable server for ever: only a refusal ends the retries.
        Effect.catchTag("Unreachable", (failure) => Effect.dieMessage(failure.reason)),
        Effect.tap(() =>
          Effect.flatMap(Ref.getAndSet(outage, Option.none()), (before) =>
            Option.isSome(before)
              ? Console.log(`reconnected to ${api}; resuming after the last event read`)
              : Effect.void
          )
        )
      )

    const forward = (event: typeof WebhooksApi.FeedEvent.Type) =>
      Effect.gen(function* () {
        const { data, ...envelope } = event
        const body = WebhookEnvelope.body(data === undefined ? envelope : { ...envelope, data })
        const at = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
        const headers = yield* signer.headers([secret], {
          id: event.id,
          timestampSeconds: Math.floor(DateTime.toEpochMillis(at) / 1000),
          body
        })
        const started = yield* Clock.currentTimeMillis
        const outcome = yield* HttpClientRequest.post(settings.forwardTo).pipe(
          HttpClientRequest.setHeaders({ ...headers, "user-agent": "Payrail-CLI/1" }),
          HttpClientRequest.bodyText(body, "application/json"),
          HttpClient.execute,
          Effect.flatMap((response) => Effect.as(response.text, String(response.status))),
          Effect.timeout(Duration.seconds(10)),
          Effect.catchAll((failure) => Effect.succeed(`failed (${failure.message})`)),
          Effect.scoped
        )
        const latencyMillis = (yield* Clock.currentTimeMillis) - started
        yield* Console.log(deliveryLine({ at, type: event.type, id: event.id, outcome, latencyMillis }))
      })

    const start = yield* read(Option.none())
    yield* Console.log(`Listening to ${api} for events; forwarding them to ${settings.forwardTo}`)
    if (Option.isNone(settings.secret)) {
      // The session's own secret, made for this run: the local endpoint verifies with it (as `stripe listen` does).
      yield* Console.log(`Forwarded webhooks are signed with this session's secret: ${Redacted.value(secret)}`)
    }
    const forwarded = new Set<string>()
    let cursor = start.cursor
    for (;;) {
      const page = yield* read(Option.some(cursor))
      for (const event of page.data) {
        if (forwarded.has(event.id)) continue
        yield* forward(event)
        forwarded.add(event.id)
        if (forwarded.size > rememberedIds) {
          const oldest = forwarded.values().next()
          if (oldest.done !== true) forwarded.delete(oldest.value)
        }
      }
      cursor = page.cursor
      if (!page.hasMore) yield* Effect.sleep(settings.pollInterval)
    }
  }).pipe(Effect.provide(FetchHttpClient.layer))
