import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"
import { quoteBody, requestsOf, type NewCustomer } from "../support/Requests.js"

const base = "/2025-10-13"

const everyPermission = [
  "VIEW_TRANSACTIONS",
  "CREATE_TRANSFERS",
  "CREATE_QUOTES",
  "EXECUTE_QUOTES",
  "MANAGE_EXTERNAL_ACCOUNTS"
] as const

const policyOf = (extra: Record<string, unknown> = {}) => ({
  permissions: everyPermission,
  defaultExecutionMode: "AUTO",
  spendingLimits: { currency: "USD", perTransactionLimit: 50_000, dailyLimit: 100_000 },
  ...extra
})

const usdAccount = (accountNumber: string) => ({
  currency: "USD",
  accountInfo: {
    accountType: "USD_ACCOUNT",
    accountNumber,
    routingNumber: "021000021",
    beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Kim Lee" }
  }
})

/**
 * The agent API (`/agents/me/...`) through HTTP on every storage adapter, with real tokens (an agent created by the
 * platform, its device code redeemed): scoping to the agent's customer, permissions, policy, idempotency.
 */
for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`the agent API over HTTP on ${adapter.name}`, () => {
    let api: Harness
    beforeAll(async () => {
      api = await makeHarness({ storage: adapter.storage() })
    }, 60_000)
    afterAll(() => api.dispose())

    const send = async (
      method: string,
      path: string,
      { auth, body, key }: { readonly auth?: string | null; readonly body?: unknown; readonly key?: string } = {}
    ) => {
      const response = await api.request(`${base}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(key === undefined ? {} : { headers: { "idempotency-key": key } }),
        ...(auth === undefined ? {} : { auth })
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
    }

    const customer = (fullName = "Kim Lee"): Promise<NewCustomer> => requestsOf(api).newCustomer({ fullName })

    const fund = async (accountId: string, amount: number) =>
      expect((await send("POST", `/sandbox/internal-accounts/${accountId}/fund`, { body: { amount } })).status).toBe(
        200
      )

    /** An external USD account of `owner`, added by the platform. */
    const externalOf = async (owner: NewCustomer, accountNumber = "999999999") => {
      const created = await send("POST", "/customers/external-accounts", {
        body: { customerId: owner.id, ...usdAccount(accountNumber) }
      })
      expect(created.status).toBe(201)
      return created.body.id as string
    }

    /** A connected agent of `owner`: created by the platform, its device code redeemed; its bearer header. */
    const agentOf = async (owner: NewCustomer, policy: Record<string, unknown> = policyOf()) => {
      const created = await send("POST", "/agents", { body: { name: "Bookkeeper", customerId: owner.id, policy } })
      expect(created.status).toBe(201)
      const redeemed = await send("POST", `/agents/device-codes/${created.body.deviceCode.code}/redeem`, {
        auth: null
      })
      expect(redeemed.status).toBe(200)
      return { id: created.body.agent.id as string, auth: `Bearer ${redeemed.body.accessToken}` }
    }

    it("manages the customer's external accounts; another customer's are 404", async () => {
      const [mine, theirs] = [await customer(), await customer("Ana Diaz")]
      const { auth } = await agentOf(mine)
      const created = await send("POST", "/agents/me/external-accounts", { auth, body: usdAccount("111111111") })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ customerId: mine.id, currency: "USD" })
      const explicit = await send("POST", "/agents/me/external-accounts", {
        auth,
        body: { customerId: mine.id, ...usdAccount("222222222") }
      })
      expect(explicit.status).toBe(201)
      const listed = await send("GET", "/agents/me/external-accounts?currency=USD&limit=10", { auth })
      expect(listed.status).toBe(200)
      expect(listed.body.data.map(({ id }: { id: string }) => id).sort()).toEqual(
        [created.body.id, explicit.body.id].sort()
      )
      expect((await send("GET", `/agents/me/external-accounts/${created.body.id}`, { auth })).body).toEqual(
        created.body
      )
      expect((await send("DELETE", `/agents/me/external-accounts/${created.body.id}`, { auth })).status).toBe(204)
      expect((await send("GET", `/agents/me/external-accounts/${created.body.id}`, { auth })).status).toBe(404)

      const other = await send("POST", "/customers/external-accounts", {
        body: { customerId: theirs.id, ...usdAccount("333333333") }
      })
      for (const method of ["GET", "DELETE"]) {
        const refused = await send(method, `/agents/me/external-accounts/${other.body.id}`, { auth })
        expect([refused.status, refused.body.code]).toEqual([404, "NOT_FOUND"])
      }
      const foreign = await send("POST", "/agents/me/external-accounts", {
        auth,
        body: { customerId: theirs.id, ...usdAccount("444444444") }
      })
      expect([foreign.status, foreign.body.code]).toEqual([404, "USER_NOT_FOUND"])
      expect((await send("GET", "/agents/me/external-accounts?limit=0", { auth })).status).toBe(400)
    })

    it("lists the customer's internal accounts and transactions; another customer's transaction is 404", async () => {
      const [mine, theirs] = [await customer(), await customer("Ana Diaz")]
      const { auth } = await agentOf(mine, policyOf({ permissions: ["VIEW_TRANSACTIONS"] }))
      const accounts = await send("GET", "/agents/me/internal-accounts", { auth })
      expect(accounts.status).toBe(200)
      expect(new Set(accounts.body.data.map(({ customerId }: { customerId: string }) => customerId))).toEqual(
        new Set([mine.id])
      )
      const usd = await send("GET", "/agents/me/internal-accounts?currency=USD&type=INTERNAL_FIAT", { auth })
      expect(usd.body.data.map(({ id }: { id: string }) => id)).toEqual([mine.accounts.USD])

      await fund(mine.accounts.USD!, 1_000)
      await fund(theirs.accounts.USD!, 2_000)
      const listed = await send("GET", "/agents/me/transactions?sortOrder=asc", { auth })
      expect(listed.status).toBe(200)
      expect(listed.body.data.map(({ customerId }: { customerId: string }) => customerId)).toEqual([mine.id])
      const own = listed.body.data[0]
      expect((await send("GET", `/agents/me/transactions/${own.id}`, { auth })).body).toEqual(own)
      const theirsListed = await send("GET", `/transactions?customerId=${theirs.id}`)
      const other = await send("GET", `/agents/me/transactions/${theirsListed.body.data[0].id}`, { auth })
      expect([other.status, other.body.code]).toEqual([404, "TRANSACTION_NOT_FOUND"])
    })

    it("refuses every operation whose permission the policy lacks with 403 and the error body", async () => {
      const mine = await customer()
      const { auth } = await agentOf(mine, policyOf({ permissions: [] }))
      const account = "ExternalAccount:00000000-0000-4000-8000-000000000009"
      const quote = "Quote:00000000-0000-4000-8000-000000000009"
      const transfer = { source: { accountId: mine.accounts.USD }, destination: { accountId: account }, amount: 100 }
      const cases: ReadonlyArray<readonly [string, string, string, unknown?]> = [
        ["GET", "/agents/me/external-accounts", "MANAGE_EXTERNAL_ACCOUNTS"],
        ["POST", "/agents/me/external-accounts", "MANAGE_EXTERNAL_ACCOUNTS", usdAccount("111111111")],
        ["GET", `/agents/me/external-accounts/${account}`, "MANAGE_EXTERNAL_ACCOUNTS"],
        ["DELETE", `/agents/me/external-accounts/${account}`, "MANAGE_EXTERNAL_ACCOUNTS"],
        ["GET", "/agents/me/transactions", "VIEW_TRANSACTIONS"],
        ["GET", "/agents/me/transactions/Transaction:00000000-0000-4000-8000-000000000009", "VIEW_TRANSACTIONS"],
        ["POST", "/agents/me/quotes", "CREATE_QUOTES", quoteBody(mine.accounts.USD!, account, 100)],
        ["POST", `/agents/me/quotes/${quote}/execute`, "EXECUTE_QUOTES"],
        ["POST", "/agents/me/transfer-out", "CREATE_TRANSFERS", transfer],
        [
          "POST",
          "/agents/me/transfer-in",
          "CREATE_TRANSFERS",
          { ...transfer, source: transfer.destination, destination: transfer.source }
        ]
      ]
      for (const [method, path, permission, body] of cases) {
        const refused = await send(method, path, { auth, body })
        expect([method, path, refused.status, refused.body]).toEqual([
          method,
          path,
          403,
          expect.objectContaining({
            code: "FORBIDDEN",
            details: { rule: "requires_permission", requiredPermission: permission }
          })
        ])
      }
      // Internal accounts and the agent's own actions need no permission.
      expect((await send("GET", "/agents/me/internal-accounts", { auth })).status).toBe(200)
      expect((await send("GET", "/agents/me/actions", { auth })).status).toBe(200)
    })

    it("answers 401 without a token, with a wrong one, with platform credentials, and after deletion", async () => {
      const mine = await customer()
      const agent = await agentOf(mine)
      for (const auth of [null, "Bearer gat_nothex", `Bearer gat_${"0".repeat(40)}`, api.basic]) {
        const refused = await send("GET", "/agents/me/internal-accounts", { auth })
        expect([refused.status, refused.body.code]).toEqual([401, "UNAUTHORIZED"])
        expect(refused.body.reason).toBe("Invalid or revoked agent access token")
      }
      expect((await send("DELETE", `/agents/${agent.id}`)).status).toBe(204)
      const deleted = await send("POST", "/agents/me/external-accounts", {
        auth: agent.auth,
        body: usdAccount("111111111")
      })
      expect(deleted.status).toBe(401)
    })

    it("creates and executes a quote in AUTO: 200 APPROVED with its transaction", async () => {
      const mine = await customer()
      await fund(mine.accounts.USD!, 10_000)
      const payee = await externalOf(mine)
      const { auth } = await agentOf(mine)
      const quote = await send("POST", "/agents/me/quotes", {
        auth,
        body: quoteBody(mine.accounts.USD!, payee, 1_000)
      })
      expect(quote.status).toBe(201)
      expect((await send("GET", `/agents/me/quotes/${quote.body.id}`, { auth })).body.id).toBe(quote.body.id)
      const executed = await send("POST", `/agents/me/quotes/${quote.body.id}/execute`, { auth })
      expect(executed.status).toBe(200)
      expect(executed.body).toMatchObject({
        status: "APPROVED",
        type: "EXECUTE_QUOTE",
        customerId: mine.id,
        quote: { id: quote.body.id },
        transaction: { quoteId: quote.body.id }
      })
      const action = await send("GET", `/agents/me/actions/${executed.body.id}`, { auth })
      expect(action.body).toMatchObject({ id: executed.body.id, status: "APPROVED" })
      // Another agent sees neither the quote nor the action.
      const other = await agentOf(mine)
      expect((await send("GET", `/agents/me/quotes/${quote.body.id}`, { auth: other.auth })).status).toBe(404)
      expect((await send("GET", `/agents/me/actions/${executed.body.id}`, { auth: other.auth })).status).toBe(404)
    })

    it("submits for approval in APPROVAL_REQUIRED: 200 PENDING_APPROVAL, then listed in /agents/me/actions", async () => {
      const mine = await customer()
      await fund(mine.accounts.USD!, 10_000)
      const payee = await externalOf(mine)
      const { auth } = await agentOf(mine, policyOf({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
      const quote = await send("POST", "/agents/me/quotes", {
        auth,
        body: quoteBody(mine.accounts.USD!, payee, 1_000)
      })
      const executed = await send("POST", `/agents/me/quotes/${quote.body.id}/execute`, { auth })
      expect(executed.status).toBe(200)
      expect(executed.body).toMatchObject({ status: "PENDING_APPROVAL", type: "EXECUTE_QUOTE" })
      expect(executed.body).not.toHaveProperty("transaction")
      const pending = await send("GET", "/agents/me/actions?status=PENDING_APPROVAL", { auth })
      expect(pending.body.data.map(({ id }: { id: string }) => id)).toEqual([executed.body.id])
      expect((await send("GET", "/agents/me/actions?status=APPROVED", { auth })).body.data).toEqual([])
    })

    it("moves money with transfer-out and transfer-in (201 AgentAction); refuses a limit with 403", async () => {
      const mine = await customer()
      await fund(mine.accounts.USD!, 100_000)
      const { auth } = await agentOf(mine)
      const external = await send("POST", "/agents/me/external-accounts", { auth, body: usdAccount("111111111") })
      const out = await send("POST", "/agents/me/transfer-out", {
        auth,
        body: { source: { accountId: mine.accounts.USD }, destination: { accountId: external.body.id }, amount: 1_500 }
      })
      expect(out.status).toBe(201)
      expect(out.body).toMatchObject({
        status: "APPROVED",
        type: "TRANSFER_OUT",
        transferDetails: {
          amount: 1_500,
          currency: "USD",
          sourceAccountId: mine.accounts.USD,
          destinationAccountId: external.body.id
        }
      })
      const pull = await send("POST", "/agents/me/transfer-in", {
        auth,
        body: { source: { accountId: external.body.id }, destination: { accountId: mine.accounts.USD }, amount: 700 }
      })
      expect(pull.status).toBe(201)
      expect(pull.body).toMatchObject({ type: "TRANSFER_IN", transferDetails: { amount: 700 } })
      const tooMuch = await send("POST", "/agents/me/transfer-out", {
        auth,
        body: { source: { accountId: mine.accounts.USD }, destination: { accountId: external.body.id }, amount: 60_000 }
      })
      expect([tooMuch.status, tooMuch.body.code, tooMuch.body.details.rule]).toEqual([
        403,
        "FORBIDDEN",
        "per_transaction_limit"
      ])
      const missing = await send("POST", "/agents/me/transfer-out", {
        auth,
        body: { source: { accountId: mine.accounts.USD }, destination: { accountId: external.body.id } }
      })
      expect([missing.status, missing.body.details.errors[0].field]).toEqual([400, "amount"])
    })

    it("replays an Idempotency-Key only to the agent that sent it, apart from the platform's keys", async () => {
      const mine = await customer()
      await fund(mine.accounts.USD!, 10_000)
      const payee = await externalOf(mine)
      const { auth } = await agentOf(mine)
      const body = quoteBody(mine.accounts.USD!, payee, 1_000)
      const key = "agent-quote-1"
      const first = await send("POST", "/agents/me/quotes", { auth, body, key })
      const again = await send("POST", "/agents/me/quotes", { auth, body, key })
      expect([first.status, again.status, again.headers.get("idempotent-replayed")]).toEqual([201, 201, "true"])
      expect(again.body).toEqual(first.body)
      const executed = await send("POST", `/agents/me/quotes/${first.body.id}/execute`, { auth, key: "execute-1" })
      const replayed = await send("POST", `/agents/me/quotes/${first.body.id}/execute`, { auth, key: "execute-1" })
      expect(replayed.body).toEqual(executed.body)
      expect(replayed.headers.get("idempotent-replayed")).toBe("true")
      // The platform's key space is its own: the same key is a new request there.
      const platform = await send("POST", "/quotes", { body, key })
      expect(platform.status).toBe(201)
      expect(platform.headers.get("idempotent-replayed")).toBeNull()
      expect(platform.body.id).not.toBe(first.body.id)
      // And another agent's too.
      const other = await agentOf(mine)
      const theirsFirst = await send("POST", "/agents/me/quotes", { auth: other.auth, body, key })
      expect(theirsFirst.headers.get("idempotent-replayed")).toBeNull()
      expect(theirsFirst.body.id).not.toBe(first.body.id)
    })
  })
}
