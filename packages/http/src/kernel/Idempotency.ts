import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Context, Data, Effect, Either, Encoding, Layer, Option, Ref, Schema } from "effect"
import {
  FieldError,
  IdempotencyErrors,
  IdempotencyKeys,
  IdempotencyRecord,
  InvalidInput,
  UnitOfWork
} from "@payrail/core"
import { AgentAuthentication, Authentication, IdempotencyHeader, PayrailApi } from "@payrail/api"
import * as ErrorMapping from "./ErrorMapping.js"

type KeyScope = IdempotencyRecord.KeyScope
type StoredResponse = IdempotencyRecord.StoredResponse

/** What the claim made after authentication decided for the current request. */
type Decision =
  | { readonly _tag: "Unclaimed" }
  | { readonly _tag: "Claimed"; readonly scope: KeyScope }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "InProgress" }

/** The decision of the current request bearing a key; absent for every other request. */
class CurrentDecision extends Context.Tag("@payrail/http/Idempotency/CurrentDecision")<
  CurrentDecision,
  Ref.Ref<Decision>
>() {}

/** Ends a replayed request before its handler runs: the stored response is answered instead. */
class Replaying extends Data.TaggedClass("IdempotencyReplaying")<Record<never, never>> {}

/** A claimed request whose response must not be kept: its unit of work rolls back, freeing the key. */
class RolledBack extends Data.TaggedError("IdempotencyRolledBack")<{
  readonly response: HttpServerResponse.HttpServerResponse
}> {}

const decodeKey = Schema.decodeUnknownEither(
  Schema.Struct({ [IdempotencyHeader.headerName]: IdempotencyRecord.IdempotencyKey })
)

/** The key of the request, or a defect `INVALID_INPUT` naming the header (answered 400 by `ErrorMapping`). */
const keyOf = (request: HttpServerRequest.HttpServerRequest) =>
  Either.match(decodeKey({ [IdempotencyHeader.headerName]: request.headers[IdempotencyHeader.headerName] }), {
    onLeft: (error) =>
      Effect.die(
        InvalidInput.InvalidInput.withErrors(
          FieldError.fromParseIssue(error.issue),
          "The Idempotency-Key header is invalid"
        )
      ),
    onRight: (headers) => Effect.succeed(headers[IdempotencyHeader.headerName])
  })

/** The `INVALID_INPUT` of an `Idempotency-Key` on a multipart upload (documents, bulk customer import). */
const multipartRefused = InvalidInput.InvalidInput.withErrors(
  [
    new FieldError.FieldError({
      field: IdempotencyHeader.headerName,
      message: "is not accepted on multipart uploads: send the upload without it"
    })
  ],
  "The Idempotency-Key header is not accepted on multipart uploads"
)

const utf8 = new TextEncoder()

/** The hex SHA-256 of a text. */
const sha256Hex = (text: string) =>
  Effect.map(
    Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", utf8.encode(text))),
    (digest) => Encoding.encodeHex(new Uint8Array(digest))
  )

/** The hex SHA-256 of the method, the path with its query, and the body: what a replay must repeat exactly. */
const fingerprintOf = (request: HttpServerRequest.HttpServerRequest, body: string) => {
  const url = new URL(request.url, "http://localhost")
  return sha256Hex(`${request.method} ${url.pathname}${url.search}\n${body}`)
}

/**
 * Claims the request's key, as `scopeOf` places it in `platformId`'s key space, for the current request bearing an
 * `Idempotency-Key` (nothing for any other request).
 */
const claimFor = (
  keys: Context.Tag.Service<IdempotencyKeys.IdempotencyKeys>,
  platformId: KeyScope["platformId"],
  scopeOf: (key: IdempotencyRecord.IdempotencyKey) => Effect.Effect<IdempotencyRecord.IdempotencyKey>
) =>
  Effect.serviceOption(CurrentDecision).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.void,
        onSome: (decision) =>
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const key = yield* keyOf(request)
            // A streamed upload cannot be read twice (once for the fingerprint, once by its handler), nor held whole.
            if (/^multipart\//i.test(request.headers["content-type"]?.trim() ?? "")) {
              return yield* Effect.die(multipartRefused)
            }
            // A body that cannot be read (too large, cut off) leaves as the reader's error, which ErrorMapping answers.
            const body = yield* Effect.orDie(request.text)
            const scope: KeyScope = { platformId, key: yield* scopeOf(key) }
            const claim = yield* Effect.either(keys.claim(scope, yield* fingerprintOf(request, body)))
            if (Either.isLeft(claim)) {
              if (claim.left._tag === "IdempotencyKeyInProgress") yield* Ref.set(decision, { _tag: "InProgress" })
              return yield* Effect.die(claim.left)
            }
            if (claim.right._tag === "Claimed") return yield* Ref.set(decision, { _tag: "Claimed", scope })
            yield* Ref.set(decision, { _tag: "Replay", response: claim.right.response })
            return yield* Effect.die(new Replaying())
          })
      })
    )
  )

type AuthenticationService = Context.Tag.Service<Authentication.Authentication>

/**
 * `authentication` followed, for a request bearing an `Idempotency-Key` (see `layer`), by the claim of the key in
 * the caller's platform: so authentication and the endpoint's permission are checked before the key is looked at,
 * and a key never crosses platforms. A bad key is 400 `INVALID_INPUT` naming the header.
 */
export const afterAuthentication = <E, R>(
  authentication: Layer.Layer<Authentication.Authentication, E, R>
): Layer.Layer<Authentication.Authentication, E, R | IdempotencyKeys.IdempotencyKeys> =>
  Layer.effect(
    Authentication.Authentication,
    Effect.gen(function* () {
      const inner = yield* Authentication.Authentication
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      return {
        BasicAuth: (credentials) =>
          Effect.tap(inner.BasicAuth(credentials), (caller) => claimFor(keys, caller.platform.id, Effect.succeed))
      } satisfies AuthenticationService
    })
  ).pipe(Layer.provide(authentication))

/**
 * Where an agent's key is kept: in its platform's key space under `agent <agentId> <hex SHA-256 of the key>`
 * (at most 113 printable characters, whatever the key's length). So an agent's keys never meet its platform's keys
 * or another agent's: the same key sent by the platform and by the agent claims two records.
 */
export const agentKeyOf = (
  agentId: string,
  key: IdempotencyRecord.IdempotencyKey
): Effect.Effect<IdempotencyRecord.IdempotencyKey> => Effect.map(sha256Hex(key), (hex) => `agent ${agentId} ${hex}`)

type AgentAuthenticationService = Context.Tag.Service<AgentAuthentication.AgentAuthentication>

/**
 * `authentication` of agents followed, for a request bearing an `Idempotency-Key`, by the claim of the key in the
 * agent's own key space (`agentKeyOf`): the token is checked before the key is looked at, and a replay answers
 * only the agent that sent the first request.
 */
export const afterAgentAuthentication = <E, R>(
  authentication: Layer.Layer<AgentAuthentication.AgentAuthentication, E, R>
): Layer.Layer<AgentAuthentication.AgentAuthentication, E, R | IdempotencyKeys.IdempotencyKeys> =>
  Layer.effect(
    AgentAuthentication.AgentAuthentication,
    Effect.gen(function* () {
      const inner = yield* AgentAuthentication.AgentAuthentication
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      return {
        AgentAuth: (token) =>
          Effect.tap(inner.AgentAuth(token), (caller) =>
            claimFor(keys, caller.platform.id, (key) => agentKeyOf(caller.agent.id, key))
          )
      } satisfies AgentAuthenticationService
    })
  ).pipe(Layer.provide(authentication))

/** Whether a claimed request's response is kept: everything below 500 but a 400 (input refused before running). */
export const isStored = (status: number): boolean => status < 500 && status !== 400

const decoder = new TextDecoder()

const storedOf = (response: HttpServerResponse.HttpServerResponse): Option.Option<StoredResponse> => {
  const { body, status } = response
  switch (body._tag) {
    case "Uint8Array":
      return Option.some({ status, contentType: body.contentType, body: decoder.decode(body.body) })
    case "Empty":
      return Option.some({ status, contentType: "", body: "" })
    default:
      return Option.none()
  }
}

/** The stored response again, marked as a replay. */
export const replayOf = (stored: StoredResponse): HttpServerResponse.HttpServerResponse => {
  const headers = { [IdempotencyHeader.replayedHeaderName]: "true" }
  return stored.contentType === "" && stored.body === ""
    ? HttpServerResponse.empty({ status: stored.status, headers })
    : HttpServerResponse.text(stored.body, { status: stored.status, contentType: stored.contentType, headers })
}

const isReplaying = (defect: unknown) => defect instanceof Replaying

const isKeyed = (request: HttpServerRequest.HttpServerRequest) =>
  IdempotencyHeader.mutatingMethods.has(request.method) &&
  request.headers[IdempotencyHeader.headerName] !== undefined &&
  new URL(request.url, "http://localhost").pathname.startsWith(`${PayrailApi.basePath}/`)

const inProgressHeaders = { "retry-after": String(IdempotencyErrors.IdempotencyKeyInProgress.retryAfterSeconds) }

/**
 * `Idempotency-Key` on every mutating request (POST, PUT, PATCH, DELETE) under the API's base path, with no code
 * in any endpoint. A request bearing the header runs inside one unit of work that, after authentication, claims
 * the key in the caller's platform (`afterAuthentication`), runs the endpoint, and stores its response last, so
 * the effect and the stored response commit together or not at all:
 * - the first request runs once; its status, content type and body are kept when `isStored` (a 5xx or a 400 rolls
 *   the unit of work back, so nothing of it remains and the key stays free);
 * - a request with the same method, path and body gets the stored response unchanged, plus
 *   `Idempotent-Replayed: true`, and runs nothing;
 * - another request with the key is 409 `idempotency_key_reused`; a request while the key's first request is
 *   still running is 409 `idempotency_key_in_progress` with `Retry-After`.
 * Requests without the header take none of this path.
 */
export const layer: Layer.Layer<never, never, UnitOfWork.UnitOfWork | IdempotencyKeys.IdempotencyKeys> =
  HttpApiBuilder.middleware(
    PayrailApi.PayrailApi,
    Effect.gen(function* () {
      const store = yield* UnitOfWork.UnitOfWork
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      const encodeFailures = yield* HttpApiBuilder.buildMiddleware(PayrailApi.PayrailApi)
      return (app: HttpApp.Default) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!isKeyed(request)) return yield* app
          const decision = yield* Ref.make<Decision>({ _tag: "Unclaimed" })
          // The response as the client would see it, failures encoded, so that it can be stored as sent.
          const respond = encodeFailures(
            ErrorMapping.mapFailures(
              app.pipe(
                Effect.catchSomeDefect((defect) =>
                  isReplaying(defect) ? Option.some(Effect.succeed(HttpServerResponse.empty())) : Option.none()
                )
              )
            ).pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request))
          ).pipe(Effect.orDie, Effect.provideService(CurrentDecision, decision))
          return yield* store
            .transaction(
              Effect.gen(function* () {
                const response = yield* respond
                const decided = yield* Ref.get(decision)
                switch (decided._tag) {
                  case "Unclaimed":
                    return response
                  case "Replay":
                    return replayOf(decided.response)
                  case "InProgress":
                    return HttpServerResponse.setHeaders(response, inProgressHeaders)
                  case "Claimed": {
                    if (!isStored(response.status)) return yield* Effect.fail(new RolledBack({ response }))
                    const stored = storedOf(response)
                    if (Option.isNone(stored)) return yield* Effect.dieMessage("a streamed response cannot be stored")
                    // Last: the response is kept only with everything the request did.
                    yield* keys.complete(decided.scope, stored.value)
                    return response
                  }
                }
              })
            )
            .pipe(Effect.catchTag("IdempotencyRolledBack", ({ response }) => Effect.succeed(response)))
        })
    })
  )
