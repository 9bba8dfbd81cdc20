import { Context, Effect, Layer } from "effect"
import {
  AuthenticationLimits,
  AgentAccessLimits,
  BulkImportLimits,
  CredentialCache,
  DocumentLimits,
  EndUserTerms,
  KycLinks,
  WebhookSecrets
} from "@payrail/core"
import { SourceAddress } from "../platforms/index.js"

/**
 * The settings (`Context.Reference`s) an application may provide, carried into every isolated context as they are:
 * a reference is read from the context it is asked in, often inside a request (`DocumentLimits` by the error
 * mapping, `PublicBaseUrl` by a card reveal), and without a value there it silently answers its default. Every
 * `Context.Reference` of the packages belongs here (`test/kernel/Isolated.test.ts` checks it).
 */
export const settings = [
  AuthenticationLimits.AuthenticationLimits,
  AgentAccessLimits.AgentAccessLimits,
  BulkImportLimits.BulkImportLimits,
  CredentialCache.TimeToLive,
  DocumentLimits.DocumentLimits,
  EndUserTerms.Current,
  KycLinks.PublicBaseUrl,
  WebhookSecrets.WebhookSecretOverlap,
  SourceAddress.TrustedProxies
] as const

const carrySettings = Context.pick(...settings)

/**
 * `layer` built in a context that holds only what `pick` keeps of the one it is given, the `settings` provided and
 * the layer memo map (so that the layers it shares with the rest of the application, such as the API's router, are
 * still built once), instead of everything the application provides.
 *
 * This is for the request path: every request runs in a copy of the context the server was built in, copied again
 * by each service provided on its way (the request, the route, the caller); with a hundred or more services in it,
 * the copies were a good part of a request's cost. The reference server builds its served app with this
 * (`packages/server/src/Serve.ts`), and `PayrailHttp.layer` builds each handler group with it, so that a handler
 * runs in a context of only the services its group uses.
 *
 * `pick` is `Context.pick(...tags)` with every service `layer` requires: the compiler refuses a list that misses
 * one (`Context.pick` answers a context of the services picked, which must cover `R`). What `layer` reads from its
 * context without requiring it in its type, other than the `settings`, is not there.
 */
export const isolated = <A, E, R>(
  layer: Layer.Layer<A, E, R>,
  pick: (context: Context.Context<R>) => Context.Context<R>
): Layer.Layer<A, E, R> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const whole = yield* Effect.context<R>()
      const context = Context.merge(carrySettings(whole), pick(whole))
      const memoMap = yield* Layer.CurrentMemoMap
      const scope = yield* Effect.scope
      // `mapInputContext` replaces the context (`Effect.provide` would merge it into the whole one).
      return yield* Layer.buildWithMemoMap(layer, memoMap, scope).pipe(
        Effect.mapInputContext<never, R>(() => Context.add(context, Layer.CurrentMemoMap, memoMap))
      )
    })
  )
