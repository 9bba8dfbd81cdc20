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
})
