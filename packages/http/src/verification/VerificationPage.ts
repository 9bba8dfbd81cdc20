import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Multipart from "@effect/platform/Multipart"
import { Effect, Layer, Option, ParseResult, Predicate, Redacted, Schema, Stream } from "effect"
import {
  BeneficialOwnerRequest,
  BeneficialOwners,
  CustomerRequest,
  Customers,
  Document,
  DocumentErrors,
  DocumentRequest,
  Documents,
  KycLink,
  KycLinks,
  PlatformTime,
  SandboxClock,
  Verifications
} from "@payrail/core"
import * as Html from "./VerificationPageHtml.js"

/** Where the hosted verification page is served: `/verify/<secret>`, outside the versioned API. */
export const pagePath = KycLink.pagePath

type Services =
  | KycLinks.KycLinks
  | Customers.Customers
  | Documents.Documents
  | BeneficialOwners.BeneficialOwners
  | Verifications.Verifications

/**
 * The page's headers: nothing but inline styles may load, nothing may frame it, forms post only to this server (and,
 * after submitting, redirect to the platform's `redirectUri` origin), and neither caches nor referrers keep the URL
 * (its secret is the person's only credential).
 */
const headers = (formTarget: string | undefined) => ({
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'; " +
    `form-action 'self'${formTarget ? ` ${formTarget}` : ""}`,
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff"
})

const html = (body: string, status = 200, formTarget?: string) =>
  HttpServerResponse.html(body).pipe(
    HttpServerResponse.setStatus(status),
    HttpServerResponse.setHeaders(headers(formTarget))
  )

const origin = (uri: string | undefined) => (uri === undefined ? undefined : new URL(uri).origin)

const notFound = () =>
  html(Html.unusablePage("Link not found", "This verification link does not exist. Ask for a new one."), 404)

const gone = (state: "EXPIRED" | "SPENT") =>
  html(
    Html.unusablePage(
      state === "EXPIRED" ? "This link has expired" : "This link was already used",
      state === "EXPIRED"
        ? "Verification links work for 24 hours. Ask for a new one."
        : "Your details were submitted through this link already. Ask for a new link if you need to add more."
    ),
    410
  )

/** A form's fields, its body read up to 64 KiB (an HTML form of this page is a few hundred bytes). */
const boundedForm = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(HttpIncomingMessage.withMaxBodySize(Option.some(64 * 1024)))

/** Form fields to the nested JSON object a request schema decodes: `a.b` paths, empty values left out. */
const nest = (entries: ReadonlyArray<readonly [string, string]>, arrays: ReadonlySet<string> = new Set()) => {
  const root: Record<string, unknown> = {}
  for (const [key, raw] of entries) {
    const value = raw.trim()
    if (value === "") continue
    const path = key.split(".")
    let node = root
    for (const segment of path.slice(0, -1)) {
      const next = node[segment]
      node = typeof next === "object" && next !== null ? (next as Record<string, unknown>) : (node[segment] = {})
    }
    const last = path[path.length - 1] ?? key
    if (arrays.has(key)) node[last] = [...((node[last] as Array<string> | undefined) ?? []), value]
    else node[last] = value
  }
  return root
}

const fieldErrors = (error: ParseResult.ParseError): ReadonlyArray<Html.PageFieldError> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    field: issue.path.map(String).join(".") || "form",
    message: issue.message
  }))

/** The hosted verification page's routes (see docs/verification.md, "Hosted verification page"). */
export const layer: Layer.Layer<never, never, Services> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Services>()
    const links = yield* KycLinks.KycLinks
    const customers = yield* Customers.Customers
    const documents = yield* Documents.Documents
    const owners = yield* BeneficialOwners.BeneficialOwners
    const verifications = yield* Verifications.Verifications

    const secretOf = Effect.map(HttpRouter.params, (params) => Redacted.make(params["secret"] ?? ""))

    // Opens the link; runs `use` in its platform's time. Unknown: 404 page; expired or spent: 410 page.
    const withLink = <E, R>(
      use: (opened: KycLinks.OpenedLink, action: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function* () {
        const secret = yield* secretOf
        const opened = yield* Effect.either(links.open(secret))
        if (opened._tag === "Left") {
          const error = opened.left
          if (error._tag === "KycLinkUnusable") return yield* gone(error.details.state)
          if (error._tag === "StoreFailure") return yield* Effect.fail(error)
          return yield* notFound()
        }
        // A deleted customer can no longer be changed (410): the link is as good as spent.
        if (opened.right.customer.isDeleted) return yield* gone("SPENT")
        const action = `${pagePath}/${Redacted.value(secret)}`
        return yield* use(opened.right, action).pipe(
          // Deleted while the person was on the page: as for a link opened after the deletion.
          Effect.catchSome((error) =>
            Predicate.isTagged(error, "CustomerDeleted") ? Option.some(gone("SPENT")) : Option.none()
          ),
          PlatformTime.within(SandboxClock.offsetOf(opened.right.platform))
        )
      })

    const render = (
      opened: KycLinks.OpenedLink,
      action: string,
      extra: Pick<Html.PageModel, "form" | "errors"> = {},
      status = 200
    ) =>
      Effect.gen(function* () {
        const { customer, platform } = opened
        const current = yield* customers.get(platform, customer.id)
        const missing = yield* verifications.missing(platform, customer.id)
        const declared =
          current.customerType === "BUSINESS"
            ? (yield* owners.list(platform, current.id, { limit: 100, after: Option.none() })).data
            : []
        const held = yield* Effect.forEach([current.id, ...declared.map((o) => o.id)], (holder) =>
          documents.list(platform, { documentHolder: holder }, { limit: 100, after: Option.none() })
        )
        return yield* html(
          Html.page({
            action,
            customer: current,
            missing,
            owners: declared,
            documents: held.flatMap((page) => page.data),
            documentTypes: Document.DocumentType.literals,
            ...extra
          }),
          status
        )
      })

    const back = (action: string) =>
      HttpServerResponse.empty({ status: 303, headers: { location: action, ...headers(undefined) } })

    const show = withLink((opened, action) => render(opened, action))

    const saveFields = withLink((opened, action) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const form = yield* boundedForm(request)
        const body = { customerType: opened.customer.customerType, ...nest(form) }
        const decoded = yield* Effect.either(
          Schema.decodeUnknown(CustomerRequest.UpdateCustomerRequest, { errors: "all", onExcessProperty: "error" })(
            body
          )
        )
        if (decoded._tag === "Left")
          return yield* render(opened, action, { form: "fields", errors: fieldErrors(decoded.left) }, 400)
        yield* customers.update(opened.platform, opened.customer.id, decoded.right)
        return yield* back(action)
      }).pipe(
        Effect.catchTag("RequestError", () =>
          html(Html.unusablePage("The form could not be read", "It may be too large. Go back and try again."), 400)
        ),
        Effect.catchTag("InvalidInput", (error) =>
          render(
            opened,
            action,
            {
              form: "fields",
              errors: (error.details?.errors ?? []).map((e) => ({ field: e.field, message: e.message ?? "is invalid" }))
            },
            400
          )
        ),
        Effect.catchTag("EndUserTermsVersionNotFound", (error) =>
          render(
            opened,
            action,
            { form: "fields", errors: [{ field: error.details.field, message: error.reason }] },
            400
          )
        )
      )
    )

    const addOwner = withLink((opened, action) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const form = yield* boundedForm(request)
        const nested = nest(form, new Set(["roles"]))
        const body = {
          ...nested,
          customerId: opened.customer.id,
          ownershipPercentage:
            nested["ownershipPercentage"] === undefined ? undefined : Number(nested["ownershipPercentage"])
        }
        const decoded = yield* Effect.either(
          Schema.decodeUnknown(BeneficialOwnerRequest.CreateBeneficialOwnerRequest, { errors: "all" })(body)
        )
        if (decoded._tag === "Left")
          return yield* render(opened, action, { form: "owners", errors: fieldErrors(decoded.left) }, 400)
        yield* owners.create(opened.platform, decoded.right)
        return yield* back(action)
      }).pipe(
        Effect.catchTag("RequestError", () =>
          html(Html.unusablePage("The form could not be read", "It may be too large. Go back and try again."), 400)
        ),
        Effect.catchTag("InvalidInput", (error) =>
          render(
            opened,
            action,
            {
              form: "owners",
              errors: (error.details?.errors ?? []).map((e) => ({ field: e.field, message: e.message ?? "is invalid" }))
            },
            400
          )
        )
      )
    )

    const upload = withLink((opened, action) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const fields: Array<readonly [string, string]> = []
        // The form puts the file last: the fields are known once its part starts, and its bytes stream to the store
        // while the body is read (the multipart stream must still be running to read them).
        const store = (file: Multipart.File) =>
          Effect.gen(function* () {
            const decoded = yield* Effect.either(
              Schema.decodeUnknown(DocumentRequest.DocumentFields, { errors: "all" })(nest(fields))
            )
            if (decoded._tag === "Left") return fieldErrors(decoded.left)
            const holder = decoded.right.documentHolder
            if (file.name === "") return [{ field: "file", message: "choose a file to upload" }]
            if (holder !== opened.customer.id) {
              const owner = yield* Effect.either(owners.get(opened.platform, holder as BeneficialOwnerIdOf))
              if (owner._tag === "Left" || owner.right.customerId !== opened.customer.id) {
                return [{ field: "documentHolder", message: "unknown person" }]
              }
            }
            yield* documents.upload(opened.platform, decoded.right, {
              fileName: file.name,
              content: file.content.pipe(
                Stream.mapError((error) =>
                  DocumentErrors.DocumentUnreadable.of(`the upload was cut short (${error.reason})`)
                )
              )
            })
            return []
          })
        const outcomes = yield* request.multipartStream.pipe(
          Stream.mapEffect((part) =>
            part._tag === "Field"
              ? Effect.sync(() => {
                  fields.push([part.key, part.value])
                  return Option.none<ReadonlyArray<Html.PageFieldError>>()
                })
              : Effect.map(store(part), Option.some)
          ),
          Stream.filterMap((outcome) => outcome),
          Stream.runCollect
        )
        const errors = [...outcomes][0] ?? [{ field: "file", message: "choose a file to upload" }]
        if (errors.length > 0) return yield* render(opened, action, { form: "documents", errors }, 400)
        return yield* back(action)
      }).pipe(
        Effect.catchTags({
          DocumentFileTooLarge: (error) =>
            render(opened, action, { form: "documents", errors: [{ field: "file", message: error.reason }] }, 413),
          DocumentFileUnsupported: (error) =>
            render(opened, action, { form: "documents", errors: [{ field: "file", message: error.reason }] }, 415),
          DocumentUnreadable: (error) =>
            render(opened, action, { form: "documents", errors: [{ field: "file", message: error.reason }] }, 400),
          DocumentRejected: (error) =>
            render(opened, action, { form: "documents", errors: [{ field: "file", message: error.reason }] }, 400),
          MultipartError: (error) =>
            render(
              opened,
              action,
              {
                form: "documents",
                errors: [{ field: "file", message: `the upload could not be read (${error.reason})` }]
              },
              400
            ),
          DocumentHolderNotFound: () =>
            render(
              opened,
              action,
              { form: "documents", errors: [{ field: "documentHolder", message: "unknown person" }] },
              400
            )
        })
      )
    )

    const submit = withLink((opened, action) =>
      links
        .spendWith(opened, verifications.submit(opened.platform, opened.customer.id), {
          keepUsableIf: (verification) => verification.verificationStatus === "RESOLVE_ERRORS"
        })
        .pipe(
          Effect.flatMap((verification) =>
            // Errors to fix: shown on the page, and the link stays usable for the next try.
            verification.verificationStatus === "RESOLVE_ERRORS"
              ? render(
                  opened,
                  action,
                  {
                    form: "submit",
                    errors: verification.errors.map((error) => ({ field: "submit", message: error.reason }))
                  },
                  400
                )
              : opened.link.redirectUri === undefined
                ? html(Html.thankYouPage())
                : HttpServerResponse.empty({
                    status: 303,
                    headers: { location: opened.link.redirectUri, ...headers(origin(opened.link.redirectUri)) }
                  })
          ),
          Effect.catchTag("VerificationFinal", (error) =>
            render(opened, action, { form: "submit", errors: [{ field: "submit", message: error.reason }] }, 409)
          )
        )
    )

    // Anything unexpected: a plain page with status 500, never the cause (it is logged).
    const guarded = <E>(
      effect: Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        E,
        Services | HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest
      >
    ) =>
      Effect.provide(effect, context).pipe(
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.logError("verification page failed", cause),
            html(Html.unusablePage("Something went wrong", "Please try again in a moment."), 500)
          )
        )
      )

    yield* router.get(`${pagePath}/:secret`, guarded(show))
    yield* router.post(`${pagePath}/:secret/fields`, guarded(saveFields))
    yield* router.post(`${pagePath}/:secret/owners`, guarded(addOwner))
    yield* router.post(`${pagePath}/:secret/documents`, guarded(upload))
    yield* router.post(`${pagePath}/:secret/submit`, guarded(submit))
  })
)

type BeneficialOwnerIdOf = Parameters<BeneficialOwners.BeneficialOwners["Type"]["get"]>[1]
