import { Context, Effect, Layer, Option } from "effect"

/**
 * Tells whether API tokens or platforms may have changed since a given moment, across every process sharing the
 * store. Authentication caches verified credentials only while this can answer, so that revoking a token takes
 * effect on the next request everywhere, not when a cache entry expires.
 */
export class CredentialChanges extends Context.Tag("@payrail/core/CredentialChanges")<
  CredentialChanges,
  {
    /**
     * A counter that grows whenever a token or a platform may have changed (and whenever changes may have been
     * missed, such as after a lost connection), or none while changes cannot be observed: then nothing may be
     * cached. Reading it is synchronous and costs no storage round trip.
     */
    readonly version: Effect.Effect<Option.Option<number>>
  }
>() {}

/** For stores that cannot signal changes: authentication then checks credentials against storage every time. */
export const unobservable: Layer.Layer<CredentialChanges> = Layer.succeed(CredentialChanges, {
  version: Effect.succeed(Option.none())
})
