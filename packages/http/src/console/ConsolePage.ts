import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { DateTime, Effect, Either, Encoding, type Layer, Option, Redacted } from "effect"
import { Authentication, type Caller, type Page, WebhookDeliveries } from "@payrail/core"
import { PayrailApi } from "@payrail/api"
import { SourceAddress } from "../platforms/index.js"
import * as Html from "./ConsoleHtml.js"
import * as Script from "./ConsoleScript.js"

/** Where the sandbox console is served, beside `/docs`, outside the versioned API. */
export const consolePath = "/console"

/** Where the console's script, stylesheet and event log are served (below `consolePath`). */
export const scriptPath = `${consolePath}/app.js`
export const stylesheetPath = `${consolePath}/app.css`
export const eventsPath = `${consolePath}/events`

/**
 * The console's policy: its own script and stylesheet and requests to its own origin, nothing inline, nothing from
 * elsewhere, no framing, no form posts; neither caches nor referrers keep what it shows.
 */
export const headers = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY"
} as const

/** The challenge a browser answers with its sign-in prompt: the realm is the API's, so one sign-in serves both. */
export const challenge = 'Basic realm="payrail", charset="UTF-8"'

/** How many of the newest deliveries' events `GET /console/events` answers. */
export const eventsLimit = 100

type Refusal = { readonly status: 401 | 403 | 429 | 500; readonly title: string; readonly message: string }

const unauthorized: Refusal = {
  status: 401,
  title: "Sign in to the console",
  message: "Sign in with one of the platform's API tokens: its client id as the user name, its secret as the password."
}

/*
 * A production token is answered 401, not 403: a browser keeps Basic credentials that got anything but a 401, and
 * would then send a production secret with every later request to this origin, cross-site ones included.
 */
const productionRefused: Refusal = {
  status: 401,
  title: "The console serves sandbox platforms only",
  message:
    "This token belongs to a production platform. Its data and money are real, so the console does not open for it " +
    "and your browser does not keep it: use the API, or sign in with a sandbox platform's token."
}

const viewRequired: Refusal = {
  status: 403,
  title: "This token cannot view the platform",
  message: "The console needs a token with the VIEW permission (TRANSACT and MANAGE for its buttons)."
}

const credentialsOf = (authorization: string | undefined) => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "")
  if (match === null) return Option.none()
  const decoded = Encoding.decodeBase64String(match[1]!)
  if (Either.isLeft(decoded)) return Option.none()
  const colon = decoded.right.indexOf(":")
  if (colon < 0) return Option.none()
  return Option.some({ clientId: decoded.right.slice(0, colon), secret: Redacted.make(decoded.right.slice(colon + 1)) })
}

/**
 * The caller of a console request, by the same Basic credentials, limits and source address as the API; refused
 * unless its token may VIEW and its platform is a sandbox one.
 */
const signIn = (
  sourceOf: ReturnType<typeof SourceAddress.make>
): Effect.Effect<
  Either.Either<Caller.Caller, Refusal>,
  never,
  Authentication.Authentication | HttpServerRequest.HttpServerRequest
> =>
  Effect.gen(function* () {
    const authentication = yield* Authentication.Authentication
    const request = yield* HttpServerRequest.HttpServerRequest
    const credentials = credentialsOf(request.headers["authorization"])
    if (Option.isNone(credentials)) return Either.left(unauthorized)
    const outcome = yield* authentication
      .authenticate(credentials.value.clientId, credentials.value.secret, sourceOf(request))
      .pipe(Effect.either)
    if (Either.isLeft(outcome)) {
      const error = outcome.left
      if (error._tag === "Unauthenticated") return Either.left(unauthorized)
      if (error._tag === "RateLimited") {
        return Either.left({ status: 429, title: "Too many attempts", message: error.reason } as const)
      }
      return yield* Effect.die(error)
    }
    const caller: Caller.Caller = outcome.right
    if (!caller.token.permissions.includes("VIEW")) return Either.left(viewRequired)
    if (caller.platform.environment !== "SANDBOX") return Either.left(productionRefused)
    return Either.right(caller)
  })

const withHeaders = (response: HttpServerResponse.HttpServerResponse, status: number) =>
  response.pipe(
    HttpServerResponse.setStatus(status),
    HttpServerResponse.setHeaders(headers),
    status === 401 ? HttpServerResponse.setHeader("www-authenticate", challenge) : (same) => same
  )

const refusedPage = (refusal: Refusal) =>
  withHeaders(HttpServerResponse.html(Html.refusalPage(refusal.title, refusal.message)), refusal.status)

const refusedJson = (refusal: Refusal) =>
  withHeaders(
    HttpServerResponse.unsafeJson({
      code: refusal.status === 401 ? "UNAUTHORIZED" : refusal.status === 429 ? "RATE_LIMITED" : "FORBIDDEN",
      reason: refusal.message
    }),
    refusal.status
  )

const failed = (cause: unknown) =>
  Effect.zipRight(
    Effect.logError("console failed", cause),
    Effect.succeed(
      withHeaders(
        HttpServerResponse.html(Html.refusalPage("Something went wrong", "Reload the page to try again.")),
        500
      )
    )
  )

const asset = (body: string, contentType: string) =>
  HttpServerResponse.text(body, { contentType }).pipe(
    HttpServerResponse.setHeaders({ ...headers, "cache-control": "no-cache" })
  )

/**
 * The sandbox console (docs/console.md) at `/console`: a page that shows a sandbox platform's customers, accounts,
 * quotes, transactions, webhook deliveries and clock, and drives its simulators, through the platform's own API.
 * A browser signs in with the HTTP Basic challenge, using an API token of the platform (the realm is the API's, so
 * the page's API calls carry the same credentials). A production platform's token is refused with 401 (so the
 * browser does not keep it): nothing of the platform is shown. `GET /console/events` answers the events of the platform's newest deliveries (what their webhooks carried),
 * which the API itself does not list.
 */
export const layer: Layer.Layer<never, never, Authentication.Authentication | WebhookDeliveries.WebhookDeliveries> =
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function* () {
      const authentication = yield* Authentication.Authentication
      const deliveries = yield* WebhookDeliveries.WebhookDeliveries
      // Read where the layer is built, which is where an application provides it (a request's context need not
      // carry it), as the API's authentication reads it.
      const sourceOf = SourceAddress.make(yield* SourceAddress.TrustedProxies)
      const provided = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.provideService(effect, Authentication.Authentication, authentication)

      const page = signIn(sourceOf).pipe(
        Effect.map(
          Either.match({
            onLeft: refusedPage,
            onRight: (caller) =>
              withHeaders(
                HttpServerResponse.html(
                  Html.consolePage({ platformName: caller.platform.name, apiBasePath: PayrailApi.basePath })
                ),
                200
              )
          })
        ),
        provided,
        Effect.catchAllCause(failed)
      )

      const events = Effect.gen(function* () {
        const signedIn = yield* signIn(sourceOf)
        if (Either.isLeft(signedIn)) return refusedJson(signedIn.left)
        const platformId = signedIn.right.platform.id
        const newest = yield* deliveries.list(platformId, {}, { limit: eventsLimit, after: Option.none<Page.Cursor>() })
        const ids = [...new Set(newest.data.map((delivery) => delivery.eventId))]
        const found = yield* deliveries.events(platformId, ids)
        return withHeaders(
          HttpServerResponse.unsafeJson({
            data: found.map((event) => ({
              id: event.id,
              type: event.type,
              timestamp: DateTime.formatIso(event.timestamp),
              data: event.data
            }))
          }),
          200
        )
      }).pipe(provided, Effect.catchAllCause(failed))

      yield* router.get(consolePath, page)
      yield* router.get(eventsPath, events)
      yield* router.get(scriptPath, Effect.succeed(asset(Script.script, "text/javascript; charset=utf-8")))
      yield* router.get(stylesheetPath, Effect.succeed(asset(Html.stylesheet, "text/css; charset=utf-8")))
    })
  )
