import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { UnitOfWork } from "@payrail/core"
import { PayrailApi, SystemApi } from "@payrail/api"

const ok = { status: "ok" } as const

/** Liveness always answers; readiness answers once the store completes an empty unit of work. */
export const layer = HttpApiBuilder.group(PayrailApi.PayrailApi, "system", (handlers) =>
  Effect.gen(function* () {
    const store = yield* UnitOfWork.UnitOfWork
    return handlers
      .handle("health", () => Effect.succeed(ok))
      .handle("ready", () =>
        store.transaction(Effect.void).pipe(
          Effect.as(ok),
          Effect.catchAll(() =>
            Effect.fail(new SystemApi.NotReady({ code: "SERVICE_UNAVAILABLE", reason: "The store does not answer" }))
          )
        )
      )
  })
)
