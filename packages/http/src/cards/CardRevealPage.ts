import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, type Layer, Option } from "effect"
import { CardReveal, Cards } from "@payrail/core"
import * as Html from "./CardRevealPageHtml.js"

/** Where the card reveal page is served: `/cards/reveal/<token>`, outside the versioned API (beside `/verify`). */
export const pagePath = CardReveal.pagePath

/**
 * The page's headers: nothing loads but inline styles; any origin may frame it (a platform embeds it in an iframe
 * of its own origin, which this server cannot know), so there is no `x-frame-options`; neither caches nor referrers
 * keep the URL or the page.
 */
export const headers = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; " +
    "frame-ancestors *",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff"
} as const

const html = (body: string, status: number) =>
  HttpServerResponse.html(body).pipe(HttpServerResponse.setStatus(status), HttpServerResponse.setHeaders(headers))

/**
 * The card reveal page (docs/cards.md, "Revealing card details"): `GET <pagePath>/<token>` shows the card's brand,
 * full number, expiry and CVC the first time a link issued by `POST /cards/{id}/reveal` is opened within its
 * lifetime; a used, expired or unknown link gets one and the same 410 page. Only GET opens it (HEAD is 405 and spends
 * nothing). Nothing on it is logged.
 */
export const layer: Layer.Layer<never, never, Cards.Cards> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const cards = yield* Cards.Cards
    const show = Effect.gen(function* () {
      // The router answers HEAD with the GET route: a HEAD (a link checker, a prefetch) must not spend the link.
      if ((yield* HttpServerRequest.HttpServerRequest).method !== "GET") {
        return HttpServerResponse.empty({ status: 405, headers: { allow: "GET", ...headers } })
      }
      const token = (yield* HttpRouter.params)["token"] ?? ""
      const opened = yield* cards.openReveal(token)
      return yield* Option.match(opened, {
        onNone: () => html(Html.unavailablePage(), 410),
        onSome: ({ details }) => html(Html.detailsPage(details), 200)
      })
    }).pipe(
      // Anything unexpected: a plain page with status 500; the cause is logged, and it never holds the details.
      Effect.catchAllCause((cause) =>
        Effect.zipRight(Effect.logError("card reveal page failed", cause), html(Html.failurePage(), 500))
      )
    )
    yield* router.get(`${pagePath}/:token`, show)
  })
)
