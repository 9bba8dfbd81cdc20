import { describe, expect, it } from "vitest"
import { createPayrailClient, PayrailError, PayrailNetworkError } from "@payrail/client"
import { freePort } from "../../server/test/ServerProcess.js"
import { recordingFetch, serverFor, stores } from "./support/Servers.js"

for (const { store, label, skip } of stores) {
  describe.skipIf(skip)(`Promise client against the reference server on ${label}`, () => {
    const server = serverFor(store, "client_promise")
    const payrail = (options: { fetch?: typeof globalThis.fetch; maxRetries?: number } = {}) =>
      createPayrailClient({
        baseUrl: server().baseUrl,
        clientId: server().clientId,
        clientSecret: server().clientSecret,
        retryDelayMillis: 10,
        ...options
      })

    it("makes a cross-currency payment with plain JSON in and out", async () => {
      const client = payrail()
      const ada = await client.customers.create({ customerType: "INDIVIDUAL", fullName: "Ada Lovelace" })
      expect(ada).toMatchObject({ customerType: "INDIVIDUAL", fullName: "Ada Lovelace" })
      expect(ada.id).toMatch(/^Customer:/)
      const grace = await client.customers.create({ customerType: "INDIVIDUAL", fullName: "Grace Hopper" })
      const adaAccounts = await client.internalAccounts.list({ customerId: ada.id })
      const usd = adaAccounts.data.find((account) => account.balance.currency.code === "USD")
      const graceAccounts = await client.internalAccounts.list({ customerId: grace.id })
      const usdc = graceAccounts.data.find((account) => account.balance.currency.code === "USDC")
      if (usd === undefined || usdc === undefined) throw new Error("the sandbox customers lack USD or USDC accounts")
      const funded = await client.internalAccounts.fund({ accountId: usd.id }, { amount: 10_000 })
      expect(funded.balance.amount).toBe(10_000)
      const quote = await client.quotes.create({
        source: { sourceType: "ACCOUNT", accountId: usd.id },
        destination: { destinationType: "ACCOUNT", accountId: usdc.id },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: 2_500
      })
      expect(quote).toMatchObject({
        status: "PENDING",
        sendingCurrency: { code: "USD" },
        receivingCurrency: { code: "USDC" }
      })
      const executed = await client.quotes.execute({ quoteId: quote.id })
      expect(executed).toMatchObject({ id: quote.id, status: "COMPLETED" })
      const transaction = await client.transactions.get({ transactionId: quote.transactionId })
      expect(transaction).toMatchObject({
        status: "COMPLETED",
        sentAmount: { amount: 2_500, currency: { code: "USD" } },
        receivedAmount: { amount: quote.totalReceivingAmount, currency: { code: "USDC" } }
      })
      expect(typeof transaction.createdAt).toBe("string")
    })

    it("rejects with PayrailError carrying status, code, reason and details exactly as the body", async () => {
      const client = payrail()
      const invalid = await client.customers
        .create({ customerType: "INDIVIDUAL", email: "nope", birthDate: "2020-02-30" })
        .catch((error: unknown) => error)
      expect(invalid).toBeInstanceOf(PayrailError)
      expect(invalid).not.toBeInstanceOf(PayrailNetworkError)
      const body = invalid as PayrailError
      expect(body).toMatchObject({ status: 400, code: "INVALID_INPUT", reason: expect.any(String) })
      const fields = (body.details?.["errors"] as ReadonlyArray<{ field: string }>).map((error) => error.field).sort()
      expect(fields).toEqual(["birthDate", "email"])
      expect(body.message).toBe(`400 INVALID_INPUT: ${body.reason}`)

      const missing = await client.customers
        .get({ customerId: `Customer:${crypto.randomUUID()}` })
        .catch((error: unknown) => error)
      expect(missing).toMatchObject({ status: 404, code: "USER_NOT_FOUND" })

      const wrongSecret = createPayrailClient({
        baseUrl: server().baseUrl,
        clientId: server().clientId,
        clientSecret: "sk_wrong"
      })
      const unauthorized = await wrongSecret.customers.list().catch((error: unknown) => error)
      expect(unauthorized).toBeInstanceOf(PayrailError)
      expect(unauthorized).toMatchObject({ status: 401, code: "UNAUTHORIZED" })

      const key = crypto.randomUUID()
      await client.customers.create({ customerType: "INDIVIDUAL", fullName: "Key Holder" }, { idempotencyKey: key })
      const reused = await client.customers
        .create({ customerType: "INDIVIDUAL", fullName: "Someone Else" }, { idempotencyKey: key })
        .catch((error: unknown) => error)
      expect(reused).toMatchObject({ status: 409, code: "CONFLICT", details: { rule: "idempotency_key_reused" } })
    })

    it("tells a network failure apart from an answer of the server", async () => {
      const port = await freePort()
      const unreachable = createPayrailClient({
        baseUrl: `http://127.0.0.1:${port}`,
        clientId: "id",
        clientSecret: "secret",
        maxRetries: 0
      })
      const failure = await unreachable.customers.list().catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(PayrailNetworkError)
      expect(failure).not.toBeInstanceOf(PayrailError)
      expect(String((failure as PayrailNetworkError).reason)).not.toContain("secret")
    })

    it("sends a fresh Idempotency-Key per mutation, none on reads, and the caller's key when given", async () => {
      const recorder = recordingFetch()
      const client = payrail({ fetch: recorder.fetch })
      await client.customers.create({ customerType: "INDIVIDUAL", fullName: "First" })
      await client.customers.create({ customerType: "INDIVIDUAL", fullName: "Second" })
      await client.customers.list({ limit: 1 })
      await client.customers.create({ customerType: "INDIVIDUAL", fullName: "Third" }, { idempotencyKey: "mine-1" })
      const keys = recorder.sent.map((request) => request.headers.get("idempotency-key"))
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/)
      expect(keys[0]).not.toBe(keys[1])
      expect(keys[2]).toBeNull()
      expect(keys[3]).toBe("mine-1")
    })

    it("retries a mutation whose answer was lost with the same key, and the server replays the first outcome", async () => {
      const name = `Lost Answer ${crypto.randomUUID()}`
      const replayed: Array<string | null> = []
      const recorder = recordingFetch(async (attempt, _request, send) => {
        const response = await send()
        replayed.push(response.headers.get("idempotent-replayed"))
        // The first attempt reaches the server and creates the customer; its answer is lost on the way back.
        if (attempt === 1) throw new TypeError("fetch failed: connection reset")
        return response
      })
      const created = await payrail({ fetch: recorder.fetch }).customers.create({
        customerType: "INDIVIDUAL",
        fullName: name
      })
      expect(recorder.sent).toHaveLength(2)
      const [first, second] = recorder.sent.map((request) => request.headers.get("idempotency-key"))
      expect(first).not.toBeNull()
      expect(second).toBe(first)
      expect(replayed).toEqual([null, "true"])
      const everyone = []
      for await (const customer of payrail().customers.list.all({ limit: 100 })) everyone.push(customer)
      expect(
        everyone
          .filter((customer) => "fullName" in customer && customer.fullName === name)
          .map((customer) => customer.id)
      ).toEqual([created.id])
    })

    it("retries a 5xx answer with the same key", async () => {
      const recorder = recordingFetch(async (attempt, _request, send) =>
        attempt === 1
          ? new Response(JSON.stringify({ status: 503, code: "UNAVAILABLE", reason: "busy" }), { status: 503 })
          : send()
      )
      const created = await payrail({ fetch: recorder.fetch }).customers.create({
        customerType: "INDIVIDUAL",
        fullName: "Patient"
      })
      expect(created).toMatchObject({ fullName: "Patient" })
      expect(recorder.sent.map((request) => request.headers.get("idempotency-key"))).toEqual([
        recorder.sent[0]?.headers.get("idempotency-key"),
        recorder.sent[0]?.headers.get("idempotency-key")
      ])
      const gaveUp = await payrail({
        fetch: recordingFetch(async () => new Response("upstream down", { status: 502 })).fetch,
        maxRetries: 1
      })
        .customers.list()
        .catch((error: unknown) => error)
      expect(gaveUp).toMatchObject({ status: 502, code: "UNEXPECTED_RESPONSE" })
    })

    it("waits out a 409 saying the same key is in progress, then gets the outcome with that key", async () => {
      const inProgress = () =>
        new Response(
          JSON.stringify({
            status: 409,
            code: "CONFLICT",
            reason: "A request with this Idempotency-Key is in progress; retry it shortly",
            details: { rule: "idempotency_key_in_progress", retryAfterSeconds: 1 }
          }),
          { status: 409, headers: { "content-type": "application/json", "retry-after": "1" } }
        )
      const recorder = recordingFetch(async (attempt, _request, send) => (attempt === 1 ? inProgress() : send()))
      const created = await payrail({ fetch: recorder.fetch }).customers.create({
        customerType: "INDIVIDUAL",
        fullName: "In Progress"
      })
      expect(created).toMatchObject({ fullName: "In Progress" })
      const key = recorder.sent[0]?.headers.get("idempotency-key")
      expect(key).toBeTruthy()
      expect(recorder.sent.map((request) => request.headers.get("idempotency-key"))).toEqual([key, key])

      // A 409 without Retry-After is a refusal of the request itself: no retry.
      const refused = recordingFetch(
        async () =>
          new Response(JSON.stringify({ status: 409, code: "CONFLICT", reason: "Quote is not pending" }), {
            status: 409,
            headers: { "content-type": "application/json" }
          })
      )
      const refusal = await payrail({ fetch: refused.fetch })
        .customers.create({ customerType: "INDIVIDUAL", fullName: "Refused" })
        .catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(PayrailError)
      expect(refusal).toMatchObject({ status: 409, code: "CONFLICT" })
      expect(refused.sent).toHaveLength(1)

      // Still in progress after every retry: the caller gets the 409 to decide.
      const stuck = recordingFetch(async () => inProgress())
      const gaveUp = await payrail({ fetch: stuck.fetch, maxRetries: 1 })
        .customers.create({ customerType: "INDIVIDUAL", fullName: "Stuck" })
        .catch((error: unknown) => error)
      expect(gaveUp).toMatchObject({ status: 409, details: { rule: "idempotency_key_in_progress" } })
      expect(stuck.sent).toHaveLength(2)
    })

    it("iterates every item of a list across pages", async () => {
      const client = payrail()
      const owner = await client.customers.create({ customerType: "INDIVIDUAL", fullName: "Many Accounts" })
      const created: Array<string> = []
      for (const accountNumber of ["100000001", "100000002", "100000003", "100000004", "100000005"]) {
        const account = await client.externalAccounts.createForCustomers({
          customerId: owner.id,
          currency: "USD",
          accountInfo: {
            accountType: "USD_ACCOUNT",
            accountNumber,
            routingNumber: "021000021",
            paymentRails: ["ACH"],
            beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Many Accounts" }
          }
        })
        created.push(account.id)
      }
      const recorder = recordingFetch()
      const seen: Array<string> = []
      for await (const account of payrail({ fetch: recorder.fetch }).externalAccounts.listForCustomers.all({
        customerId: owner.id,
        limit: 2
      }))
        seen.push(account.id)
      expect(seen.sort()).toEqual([...created].sort())
      expect(recorder.sent).toHaveLength(3)
      expect(new URL(recorder.sent[1]?.url ?? "").searchParams.get("cursor")).not.toBeNull()
    })

    it("authenticates an agent with its access token", async () => {
      const client = payrail()
      const customer = await client.customers.create({ customerType: "INDIVIDUAL", fullName: "Agent Owner" })
      const { agent, deviceCode } = await client.agents.create({
        name: "Travel bot",
        customerId: customer.id,
        policy: {
          permissions: ["CREATE_QUOTES", "EXECUTE_QUOTES"],
          defaultExecutionMode: "AUTO",
          spendingLimits: { currency: "USD", perTransactionLimit: 50_000, dailyLimit: 100_000 }
        }
      })
      const installer = createPayrailClient({ baseUrl: server().baseUrl })
      const redeemed = await installer.agentDeviceCodes.redeem({ code: deviceCode.code })
      expect(redeemed.agentId).toBe(agent.id)
      const bot = createPayrailClient({ baseUrl: server().baseUrl, agentToken: redeemed.accessToken })
      const me = await bot.agentMe.get()
      expect(me).toMatchObject({ id: agent.id, customerId: customer.id })
      const accounts = await bot.agentOperations.listInternalAccounts()
      expect(accounts.data.every((account) => account.customerId === customer.id)).toBe(true)
      const refused = await bot.customers.list().catch((error: unknown) => error)
      expect(refused).toMatchObject({ status: 401, code: "UNAUTHORIZED" })
      expect(() => createPayrailClient({ baseUrl: server().baseUrl, clientId: "only-the-id" })).toThrow(TypeError)
      const withoutPath = (client.customers.get as unknown as (params: object) => Promise<unknown>)({})
      await expect(withoutPath).rejects.toThrow(new TypeError("get: the path parameter customerId is missing"))
    })
  })
}
