import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpServer from "@effect/platform/HttpServer"
import { Deferred, Duration, Effect, Layer, Option, Ref, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { RunToEnd } from "@payrail/http"

const Api = HttpApi.make("test").add(
  HttpApiGroup.make("work").add(HttpApiEndpoint.post("work", "/work").addSuccess(Schema.String))
)

// A handler that says it started, waits for the gate, then records that it finished (or that it was interrupted).
const serve = (middleware: Layer.Layer<never>) =>
  Effect.gen(function* () {
    const started = yield* Deferred.make<void>()
    const gate = yield* Deferred.make<void>()
    const finished = yield* Deferred.make<void>()
    const interrupted = yield* Ref.make(false)
    const group = HttpApiBuilder.group(Api, "work", (handlers) =>
      handlers.handle("work", () =>
        Deferred.succeed(started, undefined).pipe(
          Effect.zipRight(Deferred.await(gate)),
          Effect.zipRight(Deferred.succeed(finished, undefined)),
          Effect.as("done"),
          Effect.onInterrupt(() => Ref.set(interrupted, true))
        )
      )
    )
    const web = HttpApiBuilder.toWebHandler(
      Layer.mergeAll(middleware, HttpServer.layerContext).pipe(
        Layer.provideMerge(HttpApiBuilder.api(Api)),
        Layer.provide(group)
      )
    )
    return { web, started, gate, finished, interrupted }
  })

// Sends a request, lets the handler start, aborts the request (the client going away) while the handler waits, then
// opens the gate.
const abandonWhileRunning = (middleware: Layer.Layer<never>) =>
  Effect.gen(function* () {
    const { web, started, gate, finished, interrupted } = yield* serve(middleware)
    const client = new AbortController()
    const answer = web.handler(new Request("http://payrail.test/work", { method: "POST", signal: client.signal }))
    yield* Deferred.await(started)
    client.abort()
    // The client is gone; the handler is still waiting for its gate.
    yield* Effect.sleep(Duration.millis(50))
    yield* Deferred.succeed(gate, undefined)
    const outcome = yield* Deferred.await(finished).pipe(Effect.timeout(Duration.seconds(2)), Effect.option)
    yield* Effect.promise(() =>
      answer.then(
        () => undefined,
        () => undefined
      )
    )
    yield* Effect.promise(() => web.dispose())
    return { finished: Option.isSome(outcome), interrupted: yield* Ref.get(interrupted) }
  })

describe("RunToEnd", () => {
  it("lets a request whose client went away run to its end", async () => {
    const outcome = await Effect.runPromise(abandonWhileRunning(RunToEnd.layer))
    expect(outcome).toStrictEqual({ finished: true, interrupted: false })
  })

  it("is what keeps it running: without it the client's going away interrupts the request", async () => {
    const outcome = await Effect.runPromise(abandonWhileRunning(Layer.empty))
    expect(outcome).toStrictEqual({ finished: false, interrupted: true })
  })

  it("answers as the request would without it", async () => {
    const response = await Effect.runPromise(
      Effect.gen(function* () {
        const { web, gate } = yield* serve(RunToEnd.layer)
        yield* Deferred.succeed(gate, undefined)
        const response = yield* Effect.promise(() =>
          web.handler(new Request("http://payrail.test/work", { method: "POST" }))
        )
        const body = yield* Effect.promise(() => response.json())
        yield* Effect.promise(() => web.dispose())
        return { status: response.status, body }
      })
    )
    expect(response).toStrictEqual({ status: 200, body: "done" })
  })
})
