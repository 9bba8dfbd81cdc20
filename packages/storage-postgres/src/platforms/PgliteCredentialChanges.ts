import { CredentialChanges } from "@payrail/core"
import { Effect, Layer, Option } from "effect"
import * as PgliteClient from "../PgliteClient.js"
import { channel } from "./PgCredentialChanges.js"

/**
 * `CredentialChanges` on PGlite: the database lives in this process (and only this one may open its directory), so
 * the notification of a change arrives with the statement that commits it, before that statement's result. The
 * version is therefore always known.
 */
export const layer: Layer.Layer<CredentialChanges.CredentialChanges, never, PgliteClient.Notifications> = Layer.scoped(
  CredentialChanges.CredentialChanges,
  Effect.gen(function* () {
    const notifications = yield* PgliteClient.Notifications
    let version = 0
    const listening = yield* notifications.listen(channel, () => void version++).pipe(Effect.option)
    // Without a subscription (it cannot fail on a working database) changes would go unseen: then never cache.
    return {
      version: Effect.sync(() => (Option.isSome(listening) ? Option.some(version) : Option.none()))
    }
  })
)
