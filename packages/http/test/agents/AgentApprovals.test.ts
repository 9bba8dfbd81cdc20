import { DateTime, Duration, Effect, Either } from "effect"
import { expect, it } from "vitest"
import { AgentActionExpiryJob, AgentActions, type AgentAction, Jobs } from "@payrail/core"
import { base, describeOverHttp } from "../support/OverHttp.js"
import { quoteBody } from "../support/Requests.js"
import { agentsOf, config, policyOf } from "./AgentFixtures.js"

/*
 * The platform's agent approvals over HTTP on every storage adapter (docs/agent-actions.md): the list with its
 * filters and pages, approve and reject with their 404s, 409s and 403s, the transaction approval, and fifty
 * concurrent AUTO executions against a limit that admits ten. Every answer is checked against the OpenAPI document.
 */
describeOverHttp("agent approvals over HTTP", { config }, (api) => {
  const t = () => agentsOf(api)

  const pendingSetup = async () => {
    const fixtures = t()
    const customer = await fixtures.newCustomer()
    await fixtures.fund(customer.accounts.USD!, 1_000_000)
    const agent = await fixtures.newAgent(customer.id, policyOf({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const submit = async (amount: number) => {
      const quote = await fixtures.quote(agent, customer.accounts.USD!, customer.accounts.EUR!, amount)
      const caller = await fixtures.callerOf(agent)
      const action = await fixtures.service((actions) => actions.executeQuote(caller, quote.id))
      expect(action.status).toBe("PENDING_APPROVAL")
      return action
    }
    return { ...fixtures, customer, agent, submit }
  }
  const actionPath = (action: AgentAction.AgentAction, verb: string) =>
    `/agents/${action.agentId}/actions/${action.id}/${verb}`

  it("lists the platform's agent actions with filters, both orders and pages", async () => {
    const fixtures = await pendingSetup()
    const first = await fixtures.submit(100)
    const second = await fixtures.submit(200)
    const third = await fixtures.submit(300)
    const other = await pendingSetup()
    const theirs = await other.submit(100)
    const ids = async (query: string) => {
      const page = await fixtures.send("GET", `/agents/approvals?${query}`)
      expect(page.status).toBe(200)
      return page.body
    }
    const mine = await ids(`agentId=${fixtures.agent.id}`)
    expect(mine).toMatchObject({ hasMore: false, totalCount: 3 })
    expect(mine.data.map((action: AgentAction.AgentAction) => action.id)).toEqual([third.id, second.id, first.id])
    expect(mine.data[0]).toMatchObject({
      status: "PENDING_APPROVAL",
      type: "EXECUTE_QUOTE",
      customerId: fixtures.customer.id,
      quote: { id: third.quote?.id }
    })
    const ascending = await ids(`agentId=${fixtures.agent.id}&sortOrder=asc&limit=2`)
    expect(ascending).toMatchObject({ hasMore: true, totalCount: 3 })
    expect(ascending.data.map((action: AgentAction.AgentAction) => action.id)).toEqual([first.id, second.id])
    const rest = await ids(`agentId=${fixtures.agent.id}&sortOrder=asc&limit=2&cursor=${ascending.nextCursor}`)
    expect(rest.data.map((action: AgentAction.AgentAction) => action.id)).toEqual([third.id])
    const byCustomer = await ids(`customerId=${other.customer.id}`)
    expect(byCustomer.data.map((action: AgentAction.AgentAction) => action.id)).toEqual([theirs.id])
    expect((await fixtures.send("POST", actionPath(second, "reject"))).status).toBe(200)
    const pendingOnly = await ids(`agentId=${fixtures.agent.id}&status=PENDING_APPROVAL`)
    expect(pendingOnly.data.map((action: AgentAction.AgentAction) => action.id)).toEqual([third.id, first.id])
    const rejected = await ids(`agentId=${fixtures.agent.id}&status=REJECTED`)
    expect(rejected.data.map((action: AgentAction.AgentAction) => action.id)).toEqual([second.id])
    const future = await ids(`agentId=${fixtures.agent.id}&startDate=2999-01-01T00:00:00Z`)
    expect(future).toMatchObject({ data: [], totalCount: 0 })
    expect(await fixtures.refusal("GET", "/agents/approvals?status=DONE")).toMatchObject({
      status: 400,
      code: "INVALID_INPUT"
    })
    // Another platform sees none of them.
    const foreign = await fixtures.send(
      "GET",
      `/agents/approvals?agentId=${fixtures.agent.id}`,
      undefined,
      api.otherPlatformBasic
    )
    expect(foreign.body).toMatchObject({ data: [], totalCount: 0 })
  })

  it("approves and rejects once each, answering 409 to a repeat and 404 to unknown or foreign ids", async () => {
    const fixtures = await pendingSetup()
    const toApprove = await fixtures.submit(100)
    const approved = await fixtures.send("POST", actionPath(toApprove, "approve"))
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({
      id: toApprove.id,
      status: "APPROVED",
      transaction: { id: toApprove.quote?.transactionId, agentId: fixtures.agent.id }
    })
    for (const verb of ["approve", "reject"]) {
      expect(await fixtures.refusal("POST", actionPath(toApprove, verb))).toEqual({
        status: 409,
        code: "CONFLICT",
        details: { actionId: toApprove.id, status: "APPROVED", rule: "action_not_pending" }
      })
    }
    const toReject = await fixtures.submit(100)
    expect(await fixtures.refusal("POST", actionPath(toReject, "reject"), { reason: "x".repeat(1001) })).toMatchObject({
      status: 400,
      code: "INVALID_INPUT"
    })
    const rejected = await fixtures.send("POST", actionPath(toReject, "reject"), { reason: "Too much today" })
    expect(rejected.status).toBe(200)
    expect(rejected.body).toMatchObject({ status: "REJECTED", rejectionReason: "Too much today" })
    expect(rejected.body.transaction).toBeUndefined()
    const bare = await fixtures.submit(100)
    const withoutBody = await api.request(`${base}${actionPath(bare, "reject")}`, { method: "POST" })
    expect(withoutBody.status).toBe(200)
    expect((await withoutBody.json()).rejectionReason).toBeUndefined()
    const stranger = await pendingSetup()
    const unknownAgent = `/agents/Agent:${globalThis.crypto.randomUUID()}/actions/${toReject.id}/approve`
    expect(await fixtures.refusal("POST", unknownAgent)).toMatchObject({ status: 404, code: "NOT_FOUND" })
    expect(await fixtures.refusal("POST", `/agents/${stranger.agent.id}/actions/${toReject.id}/approve`)).toMatchObject(
      { status: 404, code: "NOT_FOUND", details: { actionId: toReject.id } }
    )
    expect(
      await fixtures.refusal("POST", actionPath(toReject, "approve"), undefined, api.otherPlatformBasic)
    ).toMatchObject({
      status: 404
    })
    expect(await fixtures.refusal("POST", `/agents/nope/actions/${toReject.id}/approve`)).toMatchObject({
      status: 400,
      code: "INVALID_INPUT"
    })
  })

  it("lets exactly one of concurrent decisions apply, and executes an approved action once", async () => {
    const fixtures = await pendingSetup()
    for (const verbs of [
      ["approve", "reject"],
      ["approve", "approve"],
      ["reject", "approve", "approve"]
    ]) {
      const action = await fixtures.submit(1_000)
      const before = await fixtures.balanceOf(fixtures.customer.accounts.USD!)
      const answers = await Promise.all(verbs.map((verb) => fixtures.send("POST", actionPath(action, verb))))
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...verbs.slice(1).map(() => 409)])
      const winner = answers.find((answer) => answer.status === 200)!.body
      const moved = before - (await fixtures.balanceOf(fixtures.customer.accounts.USD!))
      expect(moved).toBe(winner.status === "APPROVED" ? action.quote?.totalSendingAmount : 0)
    }
  })

  it("fails a pending action by its expiry job, enqueued with it, and lists it FAILED with the reason", async () => {
    const fixtures = await pendingSetup()
    const pending = await fixtures.submit(100)
    const claimed = await api.run(
      Effect.flatMap(Jobs.Jobs, (jobs) =>
        jobs.claim({ limit: 1_000, now: DateTime.add(pending.expiresAt, { minutes: 1 }), lease: Duration.minutes(5) })
      )
    )
    const job = claimed.find(
      (candidate) =>
        candidate.job.kind === AgentActionExpiryJob.kind && candidate.job.payload["actionId"] === pending.id
    )
    expect(job?.job.dueAt).toEqual(pending.expiresAt)
    const expired = await fixtures.later(Duration.minutes(20), Effect.either(AgentActionExpiryJob.run(job!.job)))
    expect(Either.isRight(expired)).toBe(true)
    const failed = await fixtures.send("GET", `/agents/approvals?agentId=${fixtures.agent.id}&status=FAILED`)
    expect(failed.body.data).toMatchObject([{ id: pending.id, status: "FAILED", failureReason: "QUOTE_EXPIRED" }])
    expect(await fixtures.refusal("POST", actionPath(pending, "approve"))).toMatchObject({
      status: 409,
      details: { status: "FAILED" }
    })
  })

  it("requires TRANSACT to decide and VIEW to list", async () => {
    const fixtures = await pendingSetup()
    const action = await fixtures.submit(100)
    const viewer = await api.tokenWith(["VIEW"])
    const transactor = await api.tokenWith(["TRANSACT"])
    for (const verb of ["approve", "reject"]) {
      expect(await fixtures.refusal("POST", actionPath(action, verb), undefined, viewer)).toMatchObject({ status: 403 })
    }
    expect(
      await fixtures.refusal("POST", `/transactions/${action.quote?.transactionId}/approve`, undefined, viewer)
    ).toMatchObject({ status: 403 })
    expect(await fixtures.refusal("GET", "/agents/approvals", undefined, transactor)).toMatchObject({ status: 403 })
    expect((await fixtures.send("GET", "/agents/approvals", undefined, viewer)).status).toBe(200)
    expect((await fixtures.send("POST", actionPath(action, "approve"), undefined, transactor)).status).toBe(200)
  })

  it("approves an agent-initiated transaction by its id", async () => {
    const fixtures = await pendingSetup()
    const action = await fixtures.submit(100)
    const path = `/transactions/${action.quote?.transactionId}/approve`
    const approved = await fixtures.send("POST", path)
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({
      id: action.quote?.transactionId,
      agentId: fixtures.agent.id,
      status: "COMPLETED"
    })
    expect(await fixtures.refusal("POST", path)).toMatchObject({
      status: 409,
      code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
      details: { transactionId: action.quote?.transactionId, actionStatus: "APPROVED" }
    })
    expect(
      await fixtures.refusal("POST", `/transactions/Transaction:${globalThis.crypto.randomUUID()}/approve`)
    ).toMatchObject({ status: 404, code: "TRANSACTION_NOT_FOUND" })
    const platformQuote = await fixtures.send(
      "POST",
      "/quotes",
      quoteBody(fixtures.customer.accounts.USD!, fixtures.customer.accounts.EUR!, 100)
    )
    expect(await fixtures.refusal("POST", `/transactions/${platformQuote.body.transactionId}/approve`)).toMatchObject({
      status: 409,
      code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
      details: { transactionId: platformQuote.body.transactionId, actionStatus: "NONE" }
    })
  })

  it("admits exactly the ten of fifty concurrent AUTO executions a limit allows, and moves exactly ten payments", async () => {
    const fixtures = t()
    for (const spendingLimits of [
      { currency: "USD", perTransactionLimit: 100_000, dailyTransactionLimit: 10 },
      { currency: "USD", perTransactionLimit: 100_000, dailyLimit: 0 }
    ]) {
      const customer = await fixtures.newCustomer()
      await fixtures.fund(customer.accounts.USD!, 1_000_000)
      const agent = await fixtures.newAgent(customer.id, policyOf({ spendingLimits }))
      const quotes = []
      for (let index = 0; index < 50; index++) {
        quotes.push(await fixtures.quote(agent, customer.accounts.USD!, customer.accounts.EUR!, 1_000))
      }
      const total = quotes[0]!.totalSendingAmount
      expect(quotes.every((quote) => quote.totalSendingAmount === total)).toBe(true)
      // A daily spend limit of exactly ten payments.
      const policy =
        spendingLimits.dailyLimit === undefined
          ? agent.policy
          : policyOf({ spendingLimits: { ...spendingLimits, dailyLimit: total * 10 } })
      if (policy !== agent.policy) await fixtures.updateAgent(agent, () => ({ policy }))
      const caller = await fixtures.callerOf(agent)
      const results = await api.run(
        Effect.forEach(
          quotes,
          (quote) =>
            Effect.either(
              Effect.flatMap(AgentActions.AgentActions, (actions) => actions.executeQuote(caller, quote.id))
            ),
          { concurrency: "unbounded" }
        )
      )
      const admitted = results.filter(Either.isRight)
      expect(admitted).toHaveLength(10)
      expect(admitted.every((result) => result.right.status === "APPROVED")).toBe(true)
      const refused = results.filter(Either.isLeft).map((result) => result.left)
      expect(refused).toHaveLength(40)
      const rule = spendingLimits.dailyLimit === undefined ? "daily_transaction_limit" : "daily_limit"
      expect(refused.every((failure) => failure._tag === "AgentPolicyDenied" && failure.details.rule === rule)).toBe(
        true
      )
      expect(await fixtures.balanceOf(customer.accounts.USD!)).toBe(1_000_000 - 10 * total)
      const usage = await fixtures.usageOf(agent)
      expect(usage).toMatchObject({ dailyCount: 10, dailySpendMinor: BigInt(10 * total) })
      const moved = await fixtures.send("GET", `/transactions?customerId=${customer.id}&status=COMPLETED&limit=100`)
      expect(
        moved.body.data.filter((transaction: { agentId?: string }) => transaction.agentId === agent.id)
      ).toHaveLength(10)
    }
  })
})
