import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { type ApiToken, DocumentLimits, Domain, Ids, Platforms, type Storage, type Platform } from "@payrail/core"
import type { WebhookTransport } from "@payrail/core"
import { BulkImportLimits } from "@payrail/core"
import { EndUserTerms } from "@payrail/core"
import { Sandbox, type SandboxOtpDelivery } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { WebHandler } from "@payrail/http"
import { checkedFetch } from "./OpenApiContract.js"
import * as WalletPorts from "./WalletPorts.js"

export interface Harness {
  /** Sends a request to the API; the response is verified against the served OpenAPI document first. */
  readonly request: (path: string, init?: RequestInit & { readonly auth?: string | null }) => Promise<Response>
  readonly basic: string
  readonly platform: Platform.Platform
  /** Issues another token of the same platform with the given permissions; returns its Basic header value. */
  readonly tokenWith: (permissions: ReadonlyArray<ApiToken.Permission>) => Promise<string>
  /** A second platform's Basic header value, for scoping tests. */
  readonly otherPlatformBasic: string
  /** Runs an effect against the harness's services, for setting up state the API cannot reach cheaply. */
  readonly run: <A, E>(
    effect: Effect.Effect<A, E, Domain.Services | Storage.Services | SandboxOtpDelivery.SandboxOtpOutbox>
  ) => Promise<A>
  readonly dispose: () => Promise<void>
}

const basicOf = (clientId: string, secret: Redacted.Redacted<string>) =>
  `Basic ${btoa(`${clientId}:${Redacted.value(secret)}`)}`

/**
 * The API over memory storage and the sandbox KYC provider, driven through the web-standard handler. Every
 * response is checked against the OpenAPI document the handler serves, so a test fails on any undocumented
 * status or body.
 */
export const makeHarness = async (
  options: {
    readonly prefix?: string
    readonly config?: Platform.PlatformConfig
    readonly environment?: Platform.Environment
    readonly storage?: Layer.Layer<Storage.Services, unknown>
    /** The largest document file accepted (`DocumentLimits`), when not the default. */
    readonly documentMaxBytes?: number
    /** The webhook transport the domain sends through (none by default: every send fails `not_configured`). */
    readonly webhookTransport?: Layer.Layer<WebhookTransport.WebhookTransport>
    /** The bulk import limits (`BulkImportLimits`), when not the defaults. */
    readonly bulkImportLimits?: { readonly maxFileBytes: number; readonly batchRows: number }
    /** The current End User Terms (`EndUserTerms.Current`), when not the default `V1`. */
    readonly endUserTerms?: EndUserTerms.EndUserTermsView
  } = {}
): Promise<Harness> => {
  const services = Domain.layer.pipe(
    Layer.provideMerge(options.storage ?? StorageMemory.layer),
    Layer.provide(WalletPorts.layer),
    Layer.provideMerge(Sandbox.layer),
    Layer.provide(Ids.layer),
    Layer.provide(options.webhookTransport ?? Layer.empty),
    Layer.provide(
      options.endUserTerms === undefined ? Layer.empty : Layer.succeed(EndUserTerms.Current, options.endUserTerms)
    ),
    Layer.merge(
      options.documentMaxBytes === undefined
        ? Layer.empty
        : Layer.succeed(DocumentLimits.DocumentLimits, { maxFileBytes: options.documentMaxBytes })
    ),
    Layer.merge(
      options.bulkImportLimits === undefined
        ? Layer.empty
        : Layer.succeed(BulkImportLimits.BulkImportLimits, options.bulkImportLimits)
    )
  )
  const runtime = ManagedRuntime.make(services)
  const context = await runtime.runPromise(Effect.context<Domain.Services | Storage.Services>())
  const issue = (platformId: Platform.PlatformId, permissions: ReadonlyArray<ApiToken.Permission>) =>
    runtime.runPromise(
      Effect.flatMap(Platforms.Platforms, (platforms) =>
        platforms.issueToken({ platformId, name: "test", permissions })
      )
    )
  const [platform, other] = await runtime.runPromise(
    Effect.flatMap(Platforms.Platforms, (platforms) =>
      Effect.all([
        platforms.create({
          name: "Test platform",
          environment: options.environment ?? "SANDBOX",
          ...(options.config ? { config: options.config } : {})
        }),
        platforms.create({ name: "Other platform", environment: "SANDBOX" })
      ])
    )
  )
  const all = ["VIEW", "TRANSACT", "MANAGE"] as const
  const mine = await issue(platform.id, all)
  const theirs = await issue(other.id, all)
  const web = WebHandler.make({
    services: Layer.succeedContext(context),
    ...(options.prefix ? { prefix: options.prefix } : {})
  })
  const basic = basicOf(mine.token.clientId, mine.clientSecret)
  const origin = "http://payrail.test"
  const checked = checkedFetch(
    (input, init) => web.handler(new Request(input, init)),
    `${origin}${options.prefix ?? ""}`
  )
  return {
    basic,
    platform,
    otherPlatformBasic: basicOf(theirs.token.clientId, theirs.clientSecret),
    run: (effect) => runtime.runPromise(effect),
    tokenWith: async (permissions) => {
      const issued = await issue(platform.id, permissions)
      return basicOf(issued.token.clientId, issued.clientSecret)
    },
    request: (path, init = {}) => {
      const { auth, ...rest } = init
      const headers = new Headers(rest.headers)
      if (auth !== null) headers.set("authorization", auth ?? basic)
      // A FormData body gets its multipart content type (with the boundary) from the Request itself.
      if (rest.body !== undefined && !(rest.body instanceof FormData) && !headers.has("content-type")) {
        headers.set("content-type", "application/json")
      }
      return checked(`${origin}${path}`, { ...rest, headers })
    },
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}
