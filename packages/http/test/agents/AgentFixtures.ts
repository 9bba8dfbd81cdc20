import { DateTime, Duration, Effect, Option, Schema } from "effect"
import {
  Agent,
  AgentActions,
  InternalAccount,
  QuoteRequest,
  type AgentCaller,
  type AgentPolicy,
  AgentRepo,
  AgentUsageRepo,
  AgentCalendar,
  Platform,
  Platforms,
  PlatformTime,
  SandboxClocks
} from "@payrail/core"
import { AccountInfoExamples } from "@payrail/storage-testkit"
import { expect } from "vitest"
import type { Harness } from "../support/Harness.js"
import { quoteBody, requestsOf } from "../support/Requests.js"

/** A platform config with USD, EUR, MXN and USDC and wide limits, as the payment tests use. */
export const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  supportedCurrencies: ["USD", "EUR", "MXN", "USDC"].map(
    (currencyCode) => new Platform.SupportedCurrency({ currencyCode, minAmount: 1, maxAmount: 10_000_000_000 })
  )
})

/** A policy in USD with every permission, AUTO, a 100 000 per-transaction limit, plus `overrides`. */
export const policyOf = (overrides: Partial<AgentPolicy.AgentPolicy> = {}): AgentPolicy.AgentPolicy => ({
  permissions: ["VIEW_TRANSACTIONS", "CREATE_TRANSFERS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS"],
  defaultExecutionMode: "AUTO",
  spendingLimits: { currency: "USD", perTransactionLimit: 100_000 },
  ...overrides
})

type Service = AgentActions.AgentActions["Type"]

/** The decoded body of `POST /quotes` from `source` to `destination`, SENDING locked at `amount`, plus `extra`. */
export const quoteRequest = (source: string, destination: string, amount: number, extra = {}) =>
  Schema.decodeUnknownSync(QuoteRequest.CreateQuoteRequest)(quoteBody(source, destination, amount, extra))

/** An internal account id as a policy names it. */
export const internalId = (id: string): InternalAccount.InternalAccountId => InternalAccount.InternalAccountId.make(id)

/**
 * What the agent tests do through `api`: agents stored directly (`AgentRepo`, as agent management would), the
 * `AgentActions` service called at the platform's time (its sandbox clock applies), and the payments they need.
 */
export const agentsOf = (api: Harness) => {
  const requests = requestsOf(api)
  const { send } = requests
  // Runs at the platform's time, as a request of the platform would.
  const atPlatformTime = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(SandboxClocks.SandboxClocks, (clocks) => Effect.orDie(clocks.current(api.platform))).pipe(
      Effect.flatMap((clock) => PlatformTime.within(Duration.seconds(clock.offsetSeconds))(effect))
    )
  const service = <A, E>(use: (actions: Service) => Effect.Effect<A, E>) =>
    api.run(atPlatformTime(Effect.flatMap(AgentActions.AgentActions, use)))
  const attempt = <A, E>(use: (actions: Service) => Effect.Effect<A, E>) =>
    api.run(atPlatformTime(Effect.either(Effect.flatMap(AgentActions.AgentActions, use))))
  const readAgent = (id: Agent.AgentId) =>
    api.run(
      Effect.flatMap(AgentRepo.AgentRepo, (repo) => repo.findById(api.platform.id, id)).pipe(
        Effect.map(Option.getOrThrow)
      )
    )
  return {
    ...requests,
    service,
    attempt,
    /** Runs `effect` `by` after the platform's time now (its sandbox clock included). */
    later: <
      A,
      E,
      R extends (Parameters<Harness["run"]>[0] extends Effect.Effect<unknown, unknown, infer S> ? S : never)
    >(
      by: Duration.Duration,
      effect: Effect.Effect<A, E, R>
    ) => api.run(atPlatformTime(PlatformTime.within(by)(effect))),
    /** A connected agent of `customerId` under `policy`, stored directly. */
    newAgent: async (customerId: string, policy: AgentPolicy.AgentPolicy = policyOf()) => {
      const now = DateTime.unsafeNow()
      const record: Agent.AgentRecord = {
        id: Agent.AgentId.make(`Agent:${globalThis.crypto.randomUUID()}`),
        platformId: api.platform.id,
        name: "Test agent",
        customerId: customerId as Agent.AgentRecord["customerId"],
        isPaused: false,
        isConnected: true,
        policy,
        createdAt: now,
        updatedAt: now,
        tokenHash: undefined,
        version: 1
      }
      await api.run(Effect.flatMap(AgentRepo.AgentRepo, (repo) => repo.insert(record)))
      return record
    },
    /** The caller of the agent as it is stored now. */
    callerOf: async (agent: Agent.AgentRecord): Promise<AgentCaller.AgentCaller> => ({
      platform: api.platform,
      agent: await readAgent(agent.id)
    }),
    /** Changes the stored agent (a pause, a policy change), as agent management would. */
    updateAgent: async (
      agent: Agent.AgentRecord,
      change: (current: Agent.AgentRecord) => Partial<Agent.AgentRecord>
    ) => {
      const current = await readAgent(agent.id)
      const applied = await api.run(
        Effect.flatMap(AgentRepo.AgentRepo, (repo) => repo.update({ ...current, ...change(current) }, current.version))
      )
      expect(applied).toBe(true)
    },
    deleteAgent: (agent: Agent.AgentRecord) =>
      api.run(
        Effect.flatMap(AgentRepo.AgentRepo, (repo) => repo.delete(api.platform.id, agent.id, DateTime.unsafeNow()))
      ),
    /** The agent's usage counters today (the platform's day). */
    usageOf: (agent: Agent.AgentRecord) =>
      api.run(
        atPlatformTime(
          Effect.flatMap(DateTime.now, (now) =>
            Effect.flatMap(AgentUsageRepo.AgentUsageRepo, (usage) =>
              usage.current(api.platform.id, agent.id, AgentCalendar.periodOf(now))
            )
          )
        )
      ),
    fund: async (accountId: string, amount: number) =>
      expect((await send("POST", `/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200),
    /** The available balance of an internal account. */
    balanceOf: async (accountId: string): Promise<number> =>
      (await send("GET", `/internal-accounts/${accountId}`)).body.balance.amount,
    /** A US bank account of the customer. */
    bankAccount: async (customerId: string) => {
      const created = await send("POST", "/customers/external-accounts", {
        customerId,
        currency: "USD",
        accountInfo: AccountInfoExamples.exampleOf("USD_ACCOUNT")
      })
      expect(created.status).toBe(201)
      return created.body.id as string
    },
    /** A quote the agent creates from `source` to `destination`, SENDING locked at `amount`. */
    quote: async (agent: Agent.AgentRecord, source: string, destination: string, amount: number) => {
      const caller = { platform: api.platform, agent }
      return service((actions) => actions.createQuote(caller, quoteRequest(source, destination, amount)))
    }
  }
}
