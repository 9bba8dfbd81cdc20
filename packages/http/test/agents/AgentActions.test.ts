import { Duration, Effect, Either, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  AgentActionExpiryJob,
  AgentActions,
  type AgentAction,
  type Agent,
  Job,
  Jobs,
  Outbox,
  type Quote
} from "@payrail/core"
import { adapters } from "../support/Adapters.js"
import { type Harness, makeHarness } from "../support/Harness.js"
import { quoteBody } from "../support/Requests.js"
import { agentsOf, config, internalId, policyOf, quoteRequest } from "./AgentFixtures.js"

/*
 * The agent action service on every storage adapter (docs/agent-actions.md): each policy rule at submission, immediate
 * execution and approval, the state table row by row, the failure reasons under the latest state, concurrent
 * decisions, expiry, the webhook and day rollover by the sandbox clock.
 */
for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`agent actions on ${adapter.name}`, () => {
    let harness: Harness
    beforeAll(async () => {
      harness = await makeHarness({ config, storage: adapter.storage() })
    })
    afterAll(() => harness.dispose())
    const t = () => agentsOf(harness)

    // A funded customer, its agent under `policy`, and a quote of `amount` USD cents from its USD to its EUR account.
    const setup = async (policy = policyOf(), funds = 1_000_000) => {
      const fixtures = t()
      const customer = await fixtures.newCustomer()
      await fixtures.fund(customer.accounts.USD!, funds)
      const agent = await fixtures.newAgent(customer.id, policy)
      const quote = (amount: number) => fixtures.quote(agent, customer.accounts.USD!, customer.accounts.EUR!, amount)
      const execute = async (amount: number) => {
        const made = await quote(amount)
        const caller = await fixtures.callerOf(agent)
        return fixtures.attempt((actions) => actions.executeQuote(caller, made.id))
      }
      const getOwn = async (id: AgentAction.AgentActionId) => {
        const caller = await fixtures.callerOf(agent)
        return fixtures.service((actions) => actions.getOwn(caller, id))
      }
      return { ...fixtures, customer, agent, quote, execute, getOwn }
    }
    const succeeded = <A, E>(result: Either.Either<A, E>): A => {
      if (Either.isLeft(result)) throw new Error(`expected success, got ${JSON.stringify(result.left)}`)
      return result.right
    }
    const failed = <A, E>(result: Either.Either<A, E>): E => {
      if (Either.isRight(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.right)}`)
      return result.left
    }
    const submit = async (fixtures: Awaited<ReturnType<typeof setup>>, quote: Quote.Quote) => {
      const caller = await fixtures.callerOf(fixtures.agent)
      return fixtures.attempt((actions) => actions.executeQuote(caller, quote.id))
    }
    const decide = (
      fixtures: Awaited<ReturnType<typeof setup>>,
      action: AgentAction.AgentAction,
      how: "approve" | "reject" = "approve",
      reason?: string
    ) =>
      fixtures.attempt((actions) =>
        how === "approve"
          ? actions.approve(harness.platform, action.agentId, action.id)
          : actions.reject(harness.platform, action.agentId, action.id, reason)
      )

    it("executes an AUTO action below the threshold at once, charging usage, with agentId on quote and transaction", async () => {
      const fixtures = await setup(policyOf({ approvalThresholds: { currency: "USD", amount: 5_000 } }))
      const quote = await fixtures.quote(3_000)
      expect(quote.agentId).toBe(fixtures.agent.id)
      const action = succeeded(await submit(fixtures, quote))
      expect(action).toMatchObject({ status: "APPROVED", type: "EXECUTE_QUOTE", agentId: fixtures.agent.id })
      expect(action.transaction).toMatchObject({
        id: quote.transactionId,
        agentId: fixtures.agent.id,
        status: "COMPLETED"
      })
      expect(action.quote?.status).toBe("COMPLETED")
      expect(await fixtures.usageOf(fixtures.agent)).toMatchObject({
        dailyCount: 1,
        dailySpendMinor: BigInt(quote.totalSendingAmount)
      })
      expect(await fixtures.balanceOf(fixtures.customer.accounts.USD!)).toBe(1_000_000 - quote.totalSendingAmount)
    })

    it("holds an AUTO action above the threshold for approval, with the webhook of the full action, then executes it", async () => {
      const fixtures = await setup(policyOf({ approvalThresholds: { currency: "USD", amount: 5_000 } }))
      const quote = await fixtures.quote(6_000)
      const pending = succeeded(await submit(fixtures, quote))
      expect(pending).toMatchObject({ status: "PENDING_APPROVAL", expiresAt: quote.expiresAt })
      expect(pending.transaction).toBeUndefined()
      expect(pending.quote?.id).toBe(quote.id)
      expect((await fixtures.usageOf(fixtures.agent)).dailyCount).toBe(0)
      const events = await harness.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)))
      const event = events.find((candidate) => candidate.data["id"] === pending.id)
      expect(event?.type).toBe("AGENT_ACTION.PENDING_APPROVAL")
      expect(event?.data).toMatchObject({
        id: pending.id,
        agentId: fixtures.agent.id,
        customerId: fixtures.customer.id,
        status: "PENDING_APPROVAL",
        type: "EXECUTE_QUOTE",
        quote: { id: quote.id, totalSendingAmount: quote.totalSendingAmount }
      })
      // The same quote is not submitted twice.
      expect(failed(await submit(fixtures, quote))).toMatchObject({ code: "INVALID_STATE_TRANSITION" })
      const approved = succeeded(await decide(fixtures, pending))
      expect(approved).toMatchObject({ status: "APPROVED", transaction: { id: quote.transactionId } })
      expect((await fixtures.usageOf(fixtures.agent)).dailyCount).toBe(1)
      // A decision is taken once: approve and reject again are 409.
      for (const how of ["approve", "reject"] as const) {
        expect(failed(await decide(fixtures, pending, how))).toMatchObject({
          _tag: "AgentActionNotPending",
          code: "CONFLICT",
          details: { status: "APPROVED", rule: "action_not_pending" }
        })
      }
    })

    it("refuses at submission by each rule: paused, account not allowed, per-transaction limit", async () => {
      const fixtures = await setup()
      const quote = await fixtures.quote(1_000)
      await fixtures.updateAgent(fixtures.agent, () => ({ isPaused: true }))
      expect(failed(await submit(fixtures, quote))).toMatchObject({
        code: "FORBIDDEN",
        details: { rule: "agent_paused" }
      })
      await fixtures.updateAgent(fixtures.agent, (agent) => ({
        isPaused: false,
        policy: {
          ...agent.policy,
          accountRestrictions: { allowedAccountIds: [internalId(fixtures.customer.accounts.EUR!)] }
        }
      }))
      expect(failed(await submit(fixtures, quote))).toMatchObject({
        details: { rule: "account_not_allowed", accountId: fixtures.customer.accounts.USD }
      })
      // Quotes from an account the policy does not allow are refused at creation too.
      const caller = await fixtures.callerOf(fixtures.agent)
      expect(
        failed(
          await fixtures.attempt((actions) =>
            actions.createQuote(
              caller,
              quoteRequest(fixtures.customer.accounts.USD!, fixtures.customer.accounts.EUR!, 10)
            )
          )
        )
      ).toMatchObject({ details: { rule: "account_not_allowed" } })
      await fixtures.updateAgent(fixtures.agent, (agent) => ({
        policy: {
          ...agent.policy,
          accountRestrictions: {
            accountRules: [{ accountId: internalId(fixtures.customer.accounts.USD!), perTransactionLimit: 999 }]
          }
        }
      }))
      expect(failed(await submit(fixtures, quote))).toMatchObject({
        details: { rule: "per_transaction_limit", currency: "USD", limit: 999, amount: quote.totalSendingAmount }
      })
    })

    it("counts amounts in the limits' currency, converted at the current rate, limits inclusive", async () => {
      const fixtures = await setup(policyOf({ spendingLimits: { currency: "EUR", perTransactionLimit: 1 } }))
      const quote = await fixtures.quote(10_000)
      const refusal = failed(await submit(fixtures, quote))
      expect(refusal).toMatchObject({ details: { rule: "per_transaction_limit", currency: "EUR", limit: 1 } })
      const converted = (refusal as { details: { amount: number } }).details.amount
      expect(converted).not.toBe(quote.totalSendingAmount)
      const limitTo = (perTransactionLimit: number, extra = {}) =>
        fixtures.updateAgent(fixtures.agent, (agent) => ({
          policy: { ...agent.policy, spendingLimits: { currency: "EUR", perTransactionLimit, ...extra } }
        }))
      await limitTo(converted - 1)
      expect(failed(await submit(fixtures, quote))).toMatchObject({ details: { rule: "per_transaction_limit" } })
      await limitTo(converted, { monthlyLimit: converted - 1 })
      expect(failed(await submit(fixtures, quote))).toMatchObject({
        details: { rule: "monthly_limit", currency: "EUR", limit: converted - 1, used: 0 }
      })
      await limitTo(converted, { monthlyLimit: converted })
      expect(succeeded(await submit(fixtures, quote)).status).toBe("APPROVED")
      expect(await fixtures.usageOf(fixtures.agent)).toMatchObject({
        dailySpendMinor: BigInt(converted),
        monthlySpendMinor: BigInt(converted)
      })
    })

    it("holds an action of an APPROVAL_REQUIRED account rule, and executes elsewhere by the default mode", async () => {
      const fixtures = await setup()
      await fixtures.updateAgent(fixtures.agent, (agent) => ({
        policy: {
          ...agent.policy,
          accountRestrictions: {
            accountRules: [
              { accountId: internalId(fixtures.customer.accounts.USD!), executionMode: "APPROVAL_REQUIRED" }
            ]
          }
        }
      }))
      expect(succeeded(await submit(fixtures, await fixtures.quote(10))).status).toBe("PENDING_APPROVAL")
      await fixtures.fund(fixtures.customer.accounts.EUR!, 10_000)
      const caller = await fixtures.callerOf(fixtures.agent)
      const euros = await fixtures.service((actions) =>
        actions.createQuote(caller, quoteRequest(fixtures.customer.accounts.EUR!, fixtures.customer.accounts.USD!, 100))
      )
      expect(succeeded(await submit(fixtures, euros)).status).toBe("APPROVED")
    })

    it("scopes an agent to its customer and its permissions", async () => {
      const fixtures = await setup(policyOf({ permissions: ["CREATE_QUOTES"] }))
      const other = await fixtures.newCustomer()
      const caller = await fixtures.callerOf(fixtures.agent)
      const create = (source: string, destination: string) =>
        fixtures.attempt((actions) => actions.createQuote(caller, quoteRequest(source, destination, 10)))
      expect(failed(await create(other.accounts.USD!, fixtures.customer.accounts.EUR!))).toMatchObject({
        code: "NOT_FOUND",
        details: { accountId: other.accounts.USD }
      })
      expect(failed(await create(fixtures.customer.accounts.USD!, other.accounts.USD!))).toMatchObject({
        code: "NOT_FOUND",
        details: { accountId: other.accounts.USD }
      })
      const quote = await fixtures.quote(10)
      expect(failed(await submit(fixtures, quote))).toMatchObject({
        code: "FORBIDDEN",
        details: { rule: "requires_permission", requiredPermission: "EXECUTE_QUOTES" }
      })
      const stranger = await fixtures.newAgent(fixtures.customer.id)
      expect(
        failed(
          await fixtures.attempt((actions) =>
            actions.getQuote({ platform: harness.platform, agent: stranger }, quote.id)
          )
        )
      ).toMatchObject({ code: "QUOTE_NOT_FOUND" })
      expect(
        failed(
          await fixtures.attempt((actions) =>
            actions.createQuote(
              caller,
              quoteRequest(fixtures.customer.accounts.USD!, fixtures.customer.accounts.EUR!, 10, {
                immediatelyExecute: true
              })
            )
          )
        )
      ).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "immediatelyExecute" }] } })
    })

    it("rejects with the reason, once", async () => {
      const fixtures = await setup(policyOf({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
      const pending = succeeded(await submit(fixtures, await fixtures.quote(100)))
      const rejected = succeeded(await decide(fixtures, pending, "reject", "Not this month"))
      expect(rejected).toMatchObject({ status: "REJECTED", rejectionReason: "Not this month" })
      expect(rejected.transaction).toBeUndefined()
      expect(failed(await decide(fixtures, pending, "approve"))).toMatchObject({ details: { status: "REJECTED" } })
      expect(await fixtures.balanceOf(fixtures.customer.accounts.USD!)).toBe(1_000_000)
    })

    const approvalFailure = async (
      prepare: (fixtures: Awaited<ReturnType<typeof setup>>, pending: AgentAction.AgentAction) => Promise<void>,
      options: { readonly funds?: number; readonly amount?: number; readonly at?: Duration.Duration } = {}
    ) => {
      const fixtures = await setup(policyOf({ defaultExecutionMode: "APPROVAL_REQUIRED" }), options.funds)
      const pending = succeeded(await submit(fixtures, await fixtures.quote(options.amount ?? 1_000)))
      await prepare(fixtures, pending)
      const usage = await fixtures.usageOf(fixtures.agent)
      const balance = await fixtures.balanceOf(fixtures.customer.accounts.USD!)
      const decided = await fixtures.later(
        options.at ?? Duration.zero,
        Effect.flatMap(AgentActions.AgentActions, (actions) =>
          actions.approve(harness.platform, pending.agentId, pending.id)
        )
      )
      expect(decided.status).toBe("FAILED")
      expect(decided.transaction).toBeUndefined()
      // Nothing moved and nothing was counted.
      expect(await fixtures.balanceOf(fixtures.customer.accounts.USD!)).toBe(balance)
      expect(await fixtures.usageOf(fixtures.agent)).toEqual(usage)
      return decided.failureReason
    }

    it("fails an approval whose agent was paused or deleted meanwhile: AGENT_INACTIVE", async () => {
      expect(await approvalFailure((f) => f.updateAgent(f.agent, () => ({ isPaused: true })))).toBe("AGENT_INACTIVE")
      expect(await approvalFailure((f) => f.deleteAgent(f.agent).then(() => undefined))).toBe("AGENT_INACTIVE")
    })

    it("fails an approval the policy no longer allows: POLICY_DENIED", async () => {
      // The per-transaction limit reduced.
      expect(
        await approvalFailure((f) =>
          f.updateAgent(f.agent, (agent) => ({
            policy: { ...agent.policy, spendingLimits: { ...agent.policy.spendingLimits, perTransactionLimit: 10 } }
          }))
        )
      ).toBe("POLICY_DENIED")
      // The daily limit consumed by another action in between.
      expect(
        await approvalFailure(async (f) => {
          await f.updateAgent(f.agent, (agent) => ({
            policy: {
              ...agent.policy,
              defaultExecutionMode: "AUTO",
              spendingLimits: { ...agent.policy.spendingLimits, dailyLimit: 1_500 }
            }
          }))
          expect(succeeded(await f.execute(1_000)).status).toBe("APPROVED")
        })
      ).toBe("POLICY_DENIED")
    })

    it("fails an approval after its quote expired: QUOTE_EXPIRED", async () => {
      expect(await approvalFailure(async () => {}, { at: Duration.hours(2) })).toBe("QUOTE_EXPIRED")
    })

    it("fails an approval the payment refuses (insufficient funds) with nothing moved: EXECUTION_FAILED", async () => {
      expect(
        await approvalFailure(
          async (f) => {
            // The funds left meanwhile (another quote of the platform's executed from the same account).
            const drain = await f.send("POST", "/quotes", {
              ...quoteBody(f.customer.accounts.USD!, f.customer.accounts.EUR!, 1_500),
              immediatelyExecute: true
            })
            expect(drain.status).toBe(201)
          },
          { funds: 2_000 }
        )
      ).toBe("EXECUTION_FAILED")
    })

    it("lets exactly one of a concurrent approve and reject decide", async () => {
      for (let round = 0; round < 5; round++) {
        const fixtures = await setup(policyOf({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
        const pending = succeeded(await submit(fixtures, await fixtures.quote(100)))
        const [approve, reject] = await Promise.all([decide(fixtures, pending), decide(fixtures, pending, "reject")])
        expect([approve, reject].filter(Either.isRight)).toHaveLength(1)
        const loser = [approve, reject].find(Either.isLeft)
        expect(loser?.left).toMatchObject({ _tag: "AgentActionNotPending" })
      }
    })

    it("expires a pending action by its job at expiresAt, once", async () => {
      const fixtures = await setup(policyOf({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
      const pending = succeeded(await submit(fixtures, await fixtures.quote(100)))
      const job = await harness.run(
        Effect.flatMap(Jobs.Jobs, (jobs) =>
          jobs.claim({ limit: 1_000, now: pending.expiresAt, lease: Duration.minutes(1) })
        ).pipe(
          Effect.map((claimed) =>
            claimed.find(
              (candidate) =>
                candidate.job.kind === AgentActionExpiryJob.kind && candidate.job.payload["actionId"] === pending.id
            )
          )
        )
      )
      expect(job).toBeDefined()
      const run = (at: Duration.Duration) => fixtures.later(at, Effect.either(AgentActionExpiryJob.run(job!.job)))
      // Early: retried at its due time, the action still pending.
      expect(failed(await run(Duration.zero))).toMatchObject({ _tag: "JobFailed" })
      const after = Duration.minutes(16)
      expect(Either.isRight(await run(after))).toBe(true)
      const own = await fixtures.getOwn(pending.id)
      expect(own).toMatchObject({ status: "FAILED", failureReason: "QUOTE_EXPIRED" })
      expect(failed(await decide(fixtures, pending))).toMatchObject({ details: { status: "FAILED" } })
      expect(Either.isRight(await run(after))).toBe(true)
      expect((await fixtures.getOwn(pending.id)).updatedAt).toEqual(own.updatedAt)
    })

    it("starts the daily counters again when the platform's day rolls over by its sandbox clock", async () => {
      const fixtures = await setup(
        policyOf({ spendingLimits: { currency: "USD", perTransactionLimit: 100_000, dailyTransactionLimit: 1 } })
      )
      expect(succeeded(await fixtures.execute(100)).status).toBe("APPROVED")
      expect(failed(await fixtures.execute(100))).toMatchObject({
        code: "FORBIDDEN",
        details: { rule: "daily_transaction_limit", limit: 1, used: 1 }
      })
      expect((await fixtures.send("POST", "/sandbox/clock/advance", { seconds: 86_400 })).status).toBe(200)
      expect(succeeded(await fixtures.execute(100)).status).toBe("APPROVED")
      expect((await fixtures.usageOf(fixtures.agent)).dailyCount).toBe(1)
    })

    it("moves transfers for the agent: amount required, own accounts only, 24 hours to approve", async () => {
      const fixtures = await setup()
      const bank = await fixtures.bankAccount(fixtures.customer.id)
      const other = await fixtures.newCustomer()
      const theirBank = await fixtures.bankAccount(other.id)
      const out = async (destination: string, amount?: number) => {
        const caller = await fixtures.callerOf(fixtures.agent)
        return fixtures.attempt((actions) =>
          actions.transferOut(caller, {
            source: { accountId: fixtures.customer.accounts.USD! },
            destination: { accountId: destination },
            ...(amount === undefined ? {} : { amount })
          })
        )
      }
      expect(failed(await out(bank))).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [{ field: "amount" }] }
      })
      expect(failed(await out(theirBank, 100))).toMatchObject({ code: "NOT_FOUND", details: { accountId: theirBank } })
      const done = succeeded(await out(bank, 100))
      expect(done).toMatchObject({
        status: "APPROVED",
        type: "TRANSFER_OUT",
        transferDetails: {
          amount: 100,
          currency: "USD",
          sourceAccountId: fixtures.customer.accounts.USD,
          destinationAccountId: bank
        },
        transaction: { agentId: fixtures.agent.id }
      })
      await fixtures.updateAgent(fixtures.agent, (agent) => ({
        policy: { ...agent.policy, defaultExecutionMode: "APPROVAL_REQUIRED" }
      }))
      const pending = succeeded(await out(bank, 100))
      expect(pending.status).toBe("PENDING_APPROVAL")
      expect(pending.transaction).toBeUndefined()
      expect(Duration.toHours(Duration.millis(pending.expiresAt.epochMillis - pending.createdAt.epochMillis))).toBe(24)
      const due = AgentActionExpiryJob.newJob(harness.platform.id, pending.id, pending.expiresAt)
      const job = new Job.Job({
        ...due,
        id: Job.JobId.make(`Job:${globalThis.crypto.randomUUID()}`),
        status: "RUNNING",
        attempts: 1,
        createdAt: pending.createdAt,
        updatedAt: pending.createdAt
      })
      const late = await fixtures.later(Duration.hours(25), Effect.either(AgentActionExpiryJob.run(job)))
      expect(late).toEqual(Either.right(undefined))
      expect(await fixtures.getOwn(pending.id)).toMatchObject({ status: "FAILED", failureReason: "APPROVAL_EXPIRED" })
      const approved = succeeded(await decide(fixtures, succeeded(await out(bank, 100))))
      expect(approved).toMatchObject({ status: "APPROVED", transaction: { agentId: fixtures.agent.id } })
    })

    it("lists the calling agent's actions only, newest first", async () => {
      const fixtures = await setup(policyOf({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
      const first = succeeded(await submit(fixtures, await fixtures.quote(100)))
      const second = succeeded(await submit(fixtures, await fixtures.quote(200)))
      const stranger: Agent.AgentRecord = await fixtures.newAgent(fixtures.customer.id)
      const caller = await fixtures.callerOf(fixtures.agent)
      const mine = await fixtures.service((actions) => actions.listOwn(caller, {}, { limit: 10, after: Option.none() }))
      expect(mine.data.map((action) => action.id)).toEqual([second.id, first.id])
      const theirs = await fixtures.service((actions) =>
        actions.listOwn({ platform: harness.platform, agent: stranger }, {}, { limit: 10, after: Option.none() })
      )
      expect(theirs.data).toEqual([])
      expect(
        failed(
          await fixtures.attempt((actions) => actions.getOwn({ platform: harness.platform, agent: stranger }, first.id))
        )
      ).toMatchObject({ code: "NOT_FOUND" })
    })
  })
}
