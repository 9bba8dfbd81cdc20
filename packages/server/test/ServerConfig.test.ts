import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { config } from "../src/ServerConfig.js"

const read = (env: Record<string, string>) =>
  config.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("ServerConfig", () => {
  it.effect("records no spans unless PAYRAIL_TRACING asks for them", () =>
    Effect.gen(function* () {
      expect((yield* read({})).tracing).toBe(false)
      expect((yield* read({ PAYRAIL_TRACING: "true" })).tracing).toBe(true)
      expect(yield* Effect.flip(read({ PAYRAIL_TRACING: "sometimes" }))).toBeDefined()
    })
  )

  it.effect("reads the client timeouts, refusing a header deadline past the request deadline", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({
        headersTimeoutSeconds: 10,
        requestTimeoutSeconds: 30,
        keepAliveTimeoutSeconds: 5
      })
      expect(yield* read({ PAYRAIL_REQUEST_TIMEOUT_SECONDS: "60" })).toMatchObject({ requestTimeoutSeconds: 60 })
      expect(
        yield* Effect.flip(read({ PAYRAIL_HEADERS_TIMEOUT_SECONDS: "20", PAYRAIL_REQUEST_TIMEOUT_SECONDS: "10" }))
      ).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_KEEP_ALIVE_TIMEOUT_SECONDS: "0" }))).toBeDefined()
    })
  )
})
