import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, Layer, Option, Redacted, Schema, TestClock } from "effect"
import {
  Agent,
  AgentAccessLimits,
  AgentCalendar,
  Agents,
  AgentUsageRepo,
  AuthenticationLimits,
  Customers,
  Domain,
  Ids,
  InternalAccountRepo,
  Platforms,
  RateLimit,
  type Platform
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layerDeterministic)
)

const createPlatform = Effect.zipRight(
  TestClock.setTime(Date.UTC(2026, 4, 1, 12)),
  Effect.flatMap(Platforms.Platforms, (platforms) => platforms.create({ name: "Test", environment: "SANDBOX" }))
)

const decodeCreate = Schema.decodeUnknownSync(Agent.CreateAgentRequest)

const policy = {
  permissions: ["VIEW_TRANSACTIONS"],
  defaultExecutionMode: "AUTO",
  spendingLimits: { currency: "USD", perTransactionLimit: 10_000, dailyLimit: 50_000 }
}

const customerOf = (platform: Platform.Platform) =>
  Effect.flatMap(Customers.Customers, (customers) =>
    customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Ada Lovelace" })
  )

const createAgent = (platform: Platform.Platform, extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const customer = yield* customerOf(platform)
    const agents = yield* Agents.Agents
    return yield* agents.create(platform, decodeCreate({ name: "Bot", customerId: customer.id, policy, ...extra }))
  })

const ruleOf = (error: unknown) =>
  typeof error === "object" && error !== null && "details" in error
    ? (error as { readonly details: { readonly rule?: string } }).details.rule
    : undefined

describe("Agents: device codes", () => {
  it.effect("issues, reports, redeems once, and keeps only the token's hash", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { agent, deviceCode } = yield* createAgent(platform)
      expect(deviceCode.expiresAt.epochMillis - agent.createdAt.epochMillis).toBe(3600_000)
      expect((yield* agents.deviceCodeStatus(platform, deviceCode.code)).redeemed).toBe(false)
      // Typed forgivingly: lower case, O for 0 and I/L for 1 after the prefix.
      const typed = ` ${deviceCode.code.toLowerCase().replaceAll("0", "o").replaceAll("1", "l")} `
      const redeemed = yield* agents.redeem(typed)
      expect(redeemed.accessToken).toMatch(/^gat_[0-9a-f]{40}$/)
      expect(redeemed).toMatchObject({ agentId: agent.id, agentName: "Bot" })
      expect((yield* agents.deviceCodeStatus(platform, deviceCode.code)).redeemed).toBe(true)
      expect((yield* agents.get(platform, agent.id)).isConnected).toBe(true)
      const again = yield* Effect.flip(agents.redeem(deviceCode.code))
      expect(again._tag).toBe("DeviceCodeUnusable")
      expect(ruleOf(again)).toBe("already_redeemed")
      const caller = yield* agents.authenticate(Redacted.make(redeemed.accessToken))
      expect(caller.agent.id).toBe(agent.id)
      expect(caller.agent.tokenHash).not.toContain(redeemed.accessToken.slice(4))
      expect((yield* Effect.flip(agents.issueDeviceCode(platform, agent.id)))._tag).toBe("AgentAlreadyConnected")
    }).pipe(Effect.provide(services))
  )

  it.effect("a code expires after one hour of the platform's clock; a new code works", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { agent, deviceCode } = yield* createAgent(platform)
      yield* TestClock.adjust("1 hour")
      expect(ruleOf(yield* Effect.flip(agents.redeem(deviceCode.code)))).toBe("expired")
      const fresh = yield* agents.issueDeviceCode(platform, agent.id)
      yield* TestClock.adjust("59 minutes")
      expect((yield* agents.redeem(fresh.code)).agentId).toBe(agent.id)
    }).pipe(Effect.provide(services))
  )

  it.effect("a reissued code invalidates the earlier one; unknown and other platforms' codes are 404", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const other = yield* createPlatform
      const agents = yield* Agents.Agents
      const { agent, deviceCode } = yield* createAgent(platform)
      const fresh = yield* agents.issueDeviceCode(platform, agent.id)
      expect(fresh.code).not.toBe(deviceCode.code)
      expect(ruleOf(yield* Effect.flip(agents.redeem(deviceCode.code)))).toBe("invalidated")
      expect((yield* Effect.flip(agents.deviceCodeStatus(other, fresh.code)))._tag).toBe("DeviceCodeNotFound")
      expect((yield* Effect.flip(agents.redeem("PAYRAIL-AGENT-0000-0000-0000")))._tag).toBe("DeviceCodeNotFound")
      expect((yield* Effect.flip(agents.redeem("GRID-AGENT-X7K9")))._tag).toBe("DeviceCodeNotFound")
      expect((yield* agents.redeem(fresh.code)).agentId).toBe(agent.id)
    }).pipe(Effect.provide(services))
  )

  it.effect("of 20 concurrent redeemers exactly one gets a token", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { deviceCode } = yield* createAgent(platform)
      const outcomes = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => Effect.either(agents.redeem(deviceCode.code)),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter(Either.isRight)).toHaveLength(1)
      expect(outcomes.filter(Either.isLeft).map((outcome) => ruleOf(outcome.left))).toEqual(
        Array.from({ length: 19 }, () => "already_redeemed")
      )
    }).pipe(Effect.provide(services))
  )

  it.effect("20 failed redeems from one address lock it (429), even for a valid code; other addresses go on", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { deviceCode } = yield* createAgent(platform)
      for (let attempt = 0; attempt < 20; attempt++) {
        expect((yield* Effect.flip(agents.redeem("PAYRAIL-AGENT-0000-0000-0000", "192.0.2.1")))._tag).toBe(
          "DeviceCodeNotFound"
        )
      }
      const locked = yield* Effect.flip(agents.redeem("PAYRAIL-AGENT-0000-0000-0000", "192.0.2.1"))
      expect(locked._tag).toBe("RateLimited")
      expect((yield* Effect.flip(agents.redeem(deviceCode.code, "192.0.2.1")))._tag).toBe("RateLimited")
      expect((yield* Effect.flip(agents.authenticate(Redacted.make("gat_x"), "192.0.2.1")))._tag).toBe("RateLimited")
      expect((yield* agents.redeem(deviceCode.code, "192.0.2.2")).agentId).toBeDefined()
    }).pipe(Effect.provide(services))
  )

  it.effect("the limit can be changed through AgentAccessLimits", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      yield* Effect.flip(agents.authenticate(Redacted.make("gat_x"), "192.0.2.9"))
      expect((yield* Effect.flip(agents.authenticate(Redacted.make("gat_x"), "192.0.2.9")))._tag).toBe("RateLimited")
      expect(platform.id).toBeDefined()
    }).pipe(
      Effect.provide(services),
      Effect.provide(
        Layer.succeed(AgentAccessLimits.AgentAccessLimits, Option.some(RateLimit.perMinute("test_limit", 1)))
      )
    )
  )

  it.effect("limits an agent's requests as a platform's API token's: a burst, then one per interval", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { deviceCode } = yield* createAgent(platform)
      const other = yield* createAgent(platform)
      const token = Redacted.make((yield* agents.redeem(deviceCode.code)).accessToken)
      const otherToken = Redacted.make((yield* agents.redeem(other.deviceCode.code)).accessToken)
      for (let request = 0; request < 3; request++) yield* agents.authenticate(token, "192.0.2.5")
      const refused = yield* Effect.flip(agents.authenticate(token, "192.0.2.5"))
      expect(refused._tag).toBe("RateLimited")
      expect(refused._tag === "RateLimited" ? refused.details : undefined).toEqual({
        rule: "rate_limit",
        limit: "requests_per_agent_token",
        retryAfterSeconds: 1
      })
      // Another agent has a bucket of its own; a refill admits one more.
      yield* agents.authenticate(otherToken, "192.0.2.5")
      yield* TestClock.adjust("1 second")
      yield* agents.authenticate(token, "192.0.2.5")
    }).pipe(
      Effect.provide(services),
      Effect.provide(
        Layer.succeed(AuthenticationLimits.AuthenticationLimits, {
          ...AuthenticationLimits.none,
          requestsPerToken: Option.some(RateLimit.tokenBucket("requests_per_api_token", 3, 1))
        })
      )
    )
  )
})

describe("Agents: management", () => {
  it.effect("deleting an agent revokes its token at once and hides it", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { agent, deviceCode } = yield* createAgent(platform)
      const { accessToken } = yield* agents.redeem(deviceCode.code)
      yield* agents.authenticate(Redacted.make(accessToken))
      yield* agents.delete(platform, agent.id)
      expect((yield* Effect.flip(agents.authenticate(Redacted.make(accessToken))))._tag).toBe("Unauthenticated")
      expect((yield* Effect.flip(agents.get(platform, agent.id)))._tag).toBe("AgentNotFound")
      expect((yield* Effect.flip(agents.delete(platform, agent.id)))._tag).toBe("AgentNotFound")
    }).pipe(Effect.provide(services))
  )

  it.effect("pausing and resuming keeps the policy; an empty update is refused naming the body", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { agent } = yield* createAgent(platform)
      yield* TestClock.adjust("1 minute")
      const paused = yield* agents.update(platform, agent.id, { isPaused: true })
      expect(paused).toMatchObject({ isPaused: true, name: "Bot", policy: agent.policy })
      expect(paused.updatedAt.epochMillis).toBe(agent.createdAt.epochMillis + 60_000)
      const resumed = yield* agents.update(platform, agent.id, { isPaused: false, name: "Travel bot" })
      expect(resumed).toMatchObject({ isPaused: false, name: "Travel bot", policy: agent.policy })
      const empty = yield* Effect.flip(agents.update(platform, agent.id, {}))
      expect(empty).toMatchObject({ _tag: "InvalidInput", details: { errors: [{ field: "body" }] } })
      const listed = yield* agents.list(platform, { isPaused: false }, { limit: 10, after: Option.none() })
      expect(listed.data.map((listedAgent) => listedAgent.id)).toEqual([agent.id])
    }).pipe(Effect.provide(services))
  )

  it.effect("refuses policy accounts that are not the customer's internal accounts, naming each path", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const accounts = yield* InternalAccountRepo.InternalAccountRepo
      const mine = yield* customerOf(platform)
      const theirs = yield* customerOf(platform)
      const accountOf = (customerId: typeof mine.id) =>
        Effect.map(
          accounts.list(platform.id, { owner: "customers", customerId }, { limit: 1, after: Option.none() }),
          (page) => page.data[0]!.id
        )
      const own = yield* accountOf(mine.id)
      const foreign = yield* accountOf(theirs.id)
      const refused = yield* Effect.flip(
        agents.create(
          platform,
          decodeCreate({
            name: "Bot",
            customerId: mine.id,
            policy: {
              ...policy,
              accountRestrictions: { allowedAccountIds: [own, foreign], accountRules: [{ accountId: foreign }] }
            }
          })
        )
      )
      expect(refused).toMatchObject({
        _tag: "InvalidInput",
        details: {
          errors: [
            { field: "policy.accountRestrictions.allowedAccountIds.1" },
            { field: "policy.accountRestrictions.accountRules.0.accountId" }
          ]
        }
      })
      const { agent } = yield* agents.create(
        platform,
        decodeCreate({
          name: "Bot",
          customerId: mine.id,
          policy: { ...policy, accountRestrictions: { allowedAccountIds: [own] } }
        })
      )
      const patched = yield* Effect.flip(
        agents.updatePolicy(platform, agent.id, { accountRestrictions: { allowedAccountIds: [foreign] } })
      )
      expect(patched).toMatchObject({ details: { errors: [{ field: "accountRestrictions.allowedAccountIds.0" }] } })
    }).pipe(Effect.provide(services))
  )

  it.effect("refuses an unknown customer (404) and a deleted one (410)", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const customers = yield* Customers.Customers
      const gone = yield* customerOf(platform)
      yield* customers.delete(platform, gone.id)
      const create = (customerId: string) =>
        Effect.flip(agents.create(platform, decodeCreate({ name: "Bot", customerId, policy })))
      expect((yield* create(gone.id))._tag).toBe("CustomerDeleted")
      expect((yield* create("Customer:00000000-0000-4000-8000-00000000ffff"))._tag).toBe("CustomerNotFound")
    }).pipe(Effect.provide(services))
  )

  it.effect("a policy update merges the limits; a new currency converts what it does not set, rounding down", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const { agent } = yield* createAgent(platform)
      const merged = yield* agents.updatePolicy(platform, agent.id, {
        permissions: ["CREATE_QUOTES"],
        spendingLimits: { dailyLimit: null, monthlyLimit: 90_000 }
      })
      expect(merged.policy).toEqual({
        permissions: ["CREATE_QUOTES"],
        defaultExecutionMode: "AUTO",
        spendingLimits: { currency: "USD", perTransactionLimit: 10_000, monthlyLimit: 90_000 }
      })
      const euros = yield* agents.updatePolicy(platform, agent.id, {
        spendingLimits: { currency: "EUR", perTransactionLimit: 5_000 }
      })
      expect(euros.policy.spendingLimits.currency).toBe("EUR")
      expect(euros.policy.spendingLimits.perTransactionLimit).toBe(5_000)
      const monthly = euros.policy.spendingLimits.monthlyLimit ?? 0
      expect(monthly).toBeGreaterThan(0)
      expect(monthly).not.toBe(90_000)
      expect((yield* Effect.flip(agents.updatePolicy(platform, agent.id, {})))._tag).toBe("InvalidInput")
    }).pipe(Effect.provide(services))
  )

  it.effect("a new limits currency re-denominates the usage with the limits, in one step", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const agents = yield* Agents.Agents
      const usage = yield* AgentUsageRepo.AgentUsageRepo
      const { agent } = yield* createAgent(platform)
      const period = AgentCalendar.periodOf(yield* DateTime.now)
      yield* usage.charge(platform.id, agent.id, {
        day: period.day,
        month: period.month,
        amountMinor: 50_000n,
        dailyLimitMinor: undefined,
        dailyCountLimit: undefined,
        monthlyLimitMinor: undefined
      })
      const before = yield* agents.get(platform, agent.id)
      expect(before.usage).toMatchObject({ dailySpend: 50_000, monthlySpend: 50_000, dailyTransactionCount: 1 })
      const euros = yield* agents.updatePolicy(platform, agent.id, { spendingLimits: { currency: "EUR" } })
      // The daily limit was 50 000 USD cents, as is the spend: both convert alike.
      expect(euros.usage.dailySpend).toBe(euros.policy.spendingLimits.dailyLimit)
      expect(euros.usage.monthlySpend).toBe(euros.policy.spendingLimits.dailyLimit)
      expect(euros.usage.dailySpend).not.toBe(50_000)
      expect(euros.usage.dailyTransactionCount).toBe(1)
    }).pipe(Effect.provide(services))
  )
})
