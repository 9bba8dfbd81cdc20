import { Headers } from "@effect/platform"
import { Effect, Layer, ManagedRuntime, Option, Redacted, TestClock, TestContext } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AuthenticationLimits, Domain, Ids, Platforms, RateLimit, type Storage } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { WebHandler } from "@payrail/http"
import { SourceAddress } from "../../src/platforms/index.js"
import { checkedFetch } from "../support/OpenApiContract.js"
import * as WalletPorts from "../support/WalletPorts.js"

const base = "/2025-10-13"
const origin = "http://payrail.test"

const limits: AuthenticationLimits.Limits = {
  failuresPerClientId: Option.some(RateLimit.perMinute(AuthenticationLimits.names.failuresPerClientId, 5)),
  failuresPerSourceAddress: Option.none(),
  requestsPerToken: Option.some(RateLimit.tokenBucket(AuthenticationLimits.names.requestsPerToken, 20, 10))
}

// The API on memory storage with the limits above, on a TestClock the test moves; every response is checked
// against the served OpenAPI document.
const start = async () => {
  const runtime = ManagedRuntime.make(
    Domain.layer.pipe(
      Layer.provideMerge(StorageMemory.layer),
      Layer.provide(WalletPorts.layer),
      Layer.provide(Sandbox.layer),
      Layer.provide(Ids.layer),
      Layer.provide(Layer.succeed(AuthenticationLimits.AuthenticationLimits, limits)),
      Layer.provideMerge(TestContext.TestContext)
    )
  )
  const clock = await runtime.runPromise(TestClock.testClock())
  const context = await runtime.runPromise(Effect.context<Domain.Services | Storage.Services>())
  const issue = () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const platforms = yield* Platforms.Platforms
        const platform = yield* platforms.create({ name: "Limits", environment: "SANDBOX" })
        return yield* platforms.issueToken({ platformId: platform.id, name: "t", permissions: ["VIEW"] })
      })
    )
  const web = WebHandler.make({ services: Layer.merge(Layer.succeedContext(context), Layer.setClock(clock)) })
  const fetch = checkedFetch((input, init) => web.handler(new Request(input, init)), origin)
  const get = (auth: string) => fetch(`${origin}${base}/customers`, { headers: { authorization: auth } })
  return {
    issue,
    get,
    openApi: () => web.handler(new Request(`${origin}/openapi.json`)),
    advance: (millis: number) => runtime.runPromise(clock.adjust(millis)),
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}

const basic = (clientId: string, secret: string) => `Basic ${btoa(`${clientId}:${secret}`)}`

describe("rate limits over HTTP", () => {
  let api: Awaited<ReturnType<typeof start>>
  beforeAll(async () => {
    api = await start()
  })
  afterAll(() => api.dispose())

  it("answers 429 RATE_LIMITED with Retry-After after the failures, to the right secret too, and 200 once it lifts", async () => {
    const issued = await api.issue()
    const { clientId } = issued.token
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await api.get(basic(clientId, "sk_sandbox_wrong"))).status).toBe(401)
    }
    const refused = await api.get(basic(clientId, "sk_sandbox_wrong"))
    expect(refused.status).toBe(429)
    expect(refused.headers.get("retry-after")).toBe("12")
    expect(await refused.json()).toEqual({
      status: 429,
      code: "RATE_LIMITED",
      message: "Too many requests (failed_authentication_per_client_id); retry after 12 seconds",
      reason: "Too many requests (failed_authentication_per_client_id); retry after 12 seconds",
      details: { rule: "rate_limit", limit: "failed_authentication_per_client_id", retryAfterSeconds: 12 }
    })
    const right = basic(clientId, Redacted.value(issued.clientSecret))
    const lockedOut = await api.get(right)
    expect(lockedOut.status).toBe(429)
    expect(lockedOut.headers.get("retry-after")).toBe("12")
    await api.advance(11_000)
    expect((await api.get(right)).headers.get("retry-after")).toBe("1")
    await api.advance(1_000)
    expect((await api.get(right)).status).toBe(200)
  })

  it("answers 429 to a burst past the token's limit, with the wait until the next request is admitted", async () => {
    const issued = await api.issue()
    const auth = basic(issued.token.clientId, Redacted.value(issued.clientSecret))
    const statuses = await Promise.all(Array.from({ length: 30 }, () => api.get(auth).then((r) => r.status)))
    expect(statuses.filter((status) => status === 200)).toHaveLength(20)
    expect(statuses.filter((status) => status === 429)).toHaveLength(10)
    const refused = await api.get(auth)
    expect(refused.headers.get("retry-after")).toBe("1")
    expect(await refused.json()).toMatchObject({ details: { limit: "requests_per_api_token" } })
    await api.advance(100)
    expect((await api.get(auth)).status).toBe(200)
  })

  it("documents 429 with the error body on every authenticated operation of the served OpenAPI", async () => {
    const response = await api.openApi()
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>
    }
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item))
    const secured = operations.filter((operation) => Array.isArray(operation.security) && operation.security.length > 0)
    expect(secured.length).toBeGreaterThan(20)
    for (const operation of secured) expect(Object.keys(operation.responses)).toContain("429")
  })
})

describe("SourceAddress", () => {
  const request = (remoteAddress: string | undefined, forwardedFor?: string) => ({
    remoteAddress: Option.fromNullable(remoteAddress),
    headers: Headers.fromInput(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor })
  })

  it("keys IPv4 by address, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(SourceAddress.limitKey("203.0.113.9")).toBe("203.0.113.9")
    expect(SourceAddress.limitKey("::ffff:203.0.113.9")).toBe("203.0.113.9")
    expect(SourceAddress.limitKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64")
    expect(SourceAddress.limitKey("2001:db8:1:2::1")).toBe(SourceAddress.limitKey("2001:0db8:0001:0002:ffff::9"))
    expect(SourceAddress.limitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64")
    expect(SourceAddress.limitKey("not an address")).toBeUndefined()
  })

  it("ignores X-Forwarded-For unless the socket's peer is a trusted proxy, then walks it from the right", () => {
    const untrusting = SourceAddress.make([])
    expect(untrusting(request("127.0.0.1", "203.0.113.9"))).toBe("127.0.0.1")
    expect(untrusting(request(undefined))).toBeUndefined()
    const trusting = SourceAddress.make(["loopback", "10.0.0.0/8"])
    // The client can write anything left of what the proxies appended: only the first untrusted hop counts.
    expect(trusting(request("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3"))).toBe("203.0.113.9")
    expect(trusting(request("198.51.100.1", "203.0.113.9"))).toBe("198.51.100.1")
    expect(trusting(request("127.0.0.1"))).toBe("127.0.0.1")
    expect(trusting(request("127.0.0.1", "garbage"))).toBe("127.0.0.1")
    expect(() => SourceAddress.make(["not-a-range"])).toThrow()
  })
})
