import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import type { PlatformError } from "@effect/platform/Error"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Duration, Effect, Layer, Option, type ParseResult } from "effect"
import type { Errors } from "@payrail/core"
import type { JobHandler } from "@payrail/core"
import { Isolated, PayrailHttp, SourceAddress } from "@payrail/http"
import * as AccessLog from "./AccessLog.js"
import * as AppLayer from "./AppLayer.js"
import { WalletAuth } from "@payrail/wallet-auth"
import * as Banner from "./Banner.js"
import * as Bootstrap from "./Bootstrap.js"
import * as BoundedBody from "./BoundedBody.js"
import * as HttpListener from "./HttpListener.js"
import * as InFlight from "./InFlight.js"
import { baseUrl, type ServerConfig } from "./ServerConfig.js"
import * as Workers from "./Workers.js"

/**
 * The reference server as a layer: storage (migrated), the domain, the HTTP API on `host:port`, the job worker
 * running `handlers` (by default `Workers.handlers`), the sandbox bootstrap and banner, and on shutdown a drain of
 * in-flight requests and of running jobs, side by side.
 */
export const layer = (
  settings: ServerConfig,
  handlers: ReadonlyArray<JobHandler.JobHandler<Workers.HandlerServices>> = Workers.handlers
): Layer.Layer<
  InFlight.InFlight | HttpListener.Listener,
  Errors.StoreFailure | Errors.PlatformNotFound | HttpServerError.ServeError | PlatformError | ParseResult.ParseError
> => {
  const app = AppLayer.make(settings, "payrail serve")
  const serving = Layer.unwrapEffect(
    Effect.map(Effect.all([InFlight.InFlight, HttpListener.Listener]), ([counter, listener]) =>
      HttpApiBuilder.serve((httpApp) =>
        AccessLog.middleware(
          InFlight.track(counter)(HttpListener.closeWhenStopping(listener)(BoundedBody.middleware(httpApp)))
        )
      ).pipe(Layer.provide(NodeHttpServer.layer(() => listener.server, { port: settings.port, host: settings.host })))
    )
  )
  // Every request runs in (a copy of) the context the server is built in: only the API and what the middleware
  // above reads, not the whole application (see `Isolated`).
  const http = Isolated.isolated(serving, Context.pick(InFlight.InFlight, HttpListener.Listener, HttpApi.Api)).pipe(
    Layer.provide(
      PayrailHttp.layer.pipe(Layer.provide(Layer.succeed(SourceAddress.TrustedProxies, settings.trustedProxies)))
    )
  )
  const announce = Layer.effectDiscard(
    Effect.gen(function* () {
      const bootstrap = settings.bootstrap
        ? Option.some(yield* Bootstrap.ensureSandboxPlatform(settings.dataDir))
        : Option.none()
      const signer = yield* WalletAuth.SignerPublicKey
      yield* Banner.print({
        baseUrl: baseUrl(settings),
        storage: AppLayer.describeStorage(settings),
        walletSignerPublicKey: signer.uncompressedHex,
        bootstrap
      })
    })
  )
  // Built in this order: storage and domain, the listening server, then the banner and the drain; released in
  // reverse, so the drain waits for in-flight requests while the server still answers them.
  return Layer.mergeAll(
    InFlight.drainOnShutdown(Duration.seconds(settings.shutdownTimeoutSeconds)),
    Workers.layer(settings, handlers),
    announce
  ).pipe(
    Layer.provide(http),
    Layer.provide(NodeContext.layer),
    Layer.provideMerge(InFlight.layer),
    Layer.provideMerge(HttpListener.layer(settings)),
    Layer.provide(app)
  )
}
