import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Schema, Stream } from "effect"
import { Customer, CustomerRequest } from "@payrail/core"
import { PayrailAuth, PayrailClient, PayrailError, PayrailNetworkError } from "@payrail/client"
import { freePort } from "../../server/test/ServerProcess.js"
import { recordingFetch, serverFor, stores } from "./support/Servers.js"

const individual = (fullName: string) =>
  Schema.decodeUnknownSync(CustomerRequest.CreateIndividualCustomer)({ customerType: "INDIVIDUAL", fullName })

for (const { store, label, skip } of stores) {
  describe.skipIf(skip)(`Effect client against the reference server on ${label}`, () => {
    const server = serverFor(store, "client_effect")
    const layer = (options: Partial<PayrailClient.Config> = {}) =>
      PayrailClient.layer({
        baseUrl: server().baseUrl,
        auth: PayrailAuth.basic(server().clientId, server().clientSecret),
        retryDelayMillis: 10,
        ...options
      })

    it.live("creates, reads and updates with the contract's types, and streams a list across pages", () => {
      const recorder = recordingFetch()
      return Effect.gen(function* () {
        const client = yield* PayrailClient.PayrailClient
        const ids: Array<string> = []
        for (const name of ["Ada Lovelace", "Grace Hopper", "Alan Turing"]) {
          const created = yield* client.customers.create({ payload: individual(name) })
          ids.push(created.id)
        }
        const read = yield* client.customers.get({ path: { customerId: Customer.CustomerId.make(ids[0] ?? "") } })
        expect(read).toMatchObject({ id: ids[0], fullName: "Ada Lovelace" })
        const updated = yield* client.customers.update({
          path: { customerId: read.id },
          headers: {},
          payload: Schema.decodeUnknownSync(CustomerRequest.UpdateIndividualCustomer)({
            customerType: "INDIVIDUAL",
            fullName: "Ada King"
          })
        })
        expect(updated).toMatchObject({ id: read.id, fullName: "Ada King" })
        const before = recorder.sent.length
        const everyone = yield* Stream.runCollect(
          PayrailClient.stream(client.customers.list, { urlParams: { limit: 2 } })
        )
        const listed = Chunk.toReadonlyArray(everyone).map((customer) => customer.id)
        expect(listed).toEqual(expect.arrayContaining(ids))
        expect(new Set(listed).size).toBe(listed.length)
        expect(recorder.sent.length - before).toBeGreaterThanOrEqual(2)
      }).pipe(Effect.provide(layer({ fetch: recorder.fetch })))
    })

    it.live("fails with PayrailError carrying status, code, reason and details, matched by tag", () =>
      Effect.gen(function* () {
        const client = yield* PayrailClient.PayrailClient
        const missing = yield* Effect.flip(
          client.customers.get({ path: { customerId: Customer.CustomerId.make(`Customer:${crypto.randomUUID()}`) } })
        )
        expect(missing).toBeInstanceOf(PayrailError)
        expect(missing).toMatchObject({ _tag: "PayrailError", status: 404, code: "USER_NOT_FOUND" })
        const recovered = yield* client.customers
          .get({ path: { customerId: Customer.CustomerId.make(`Customer:${crypto.randomUUID()}`) } })
          .pipe(Effect.catchTag("PayrailError", (error) => Effect.succeed(error.code)))
        expect(recovered).toBe("USER_NOT_FOUND")

        const key = crypto.randomUUID()
        yield* client.customers.create({ payload: individual("Key Holder"), idempotencyKey: key })
        const reused = yield* Effect.flip(
          client.customers.create({ payload: individual("Someone Else"), idempotencyKey: key })
        )
        expect(reused).toMatchObject({ status: 409, code: "CONFLICT", details: { rule: "idempotency_key_reused" } })

        // The contract refuses it before anything is sent: the same 400 the server would answer, naming the field.
        const invalid = yield* Effect.flip(client.customers.list({ urlParams: { limit: 1_000 } }))
        expect(invalid).toMatchObject({ status: 400, code: "INVALID_INPUT" })
        const errors = (invalid as PayrailError).details?.["errors"] as ReadonlyArray<{ field: string }>
        expect(errors.map((error) => error.field)).toEqual(["limit"])

        const unauthorized = yield* Effect.flip(
          Effect.flatMap(PayrailClient.PayrailClient, (other) => other.customers.list({ urlParams: {} })).pipe(
            Effect.provide(layer({ auth: PayrailAuth.basic(server().clientId, "sk_wrong") }))
          )
        )
        expect(unauthorized).toMatchObject({ _tag: "PayrailError", status: 401, code: "UNAUTHORIZED" })
      }).pipe(Effect.provide(layer()))
    )

    it.live("fails with PayrailNetworkError when no answer comes back", () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(freePort)
        const failure = yield* Effect.flip(
          Effect.flatMap(PayrailClient.PayrailClient, (client) => client.customers.list({ urlParams: {} })).pipe(
            Effect.provide(layer({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 }))
          )
        )
        expect(failure).toBeInstanceOf(PayrailNetworkError)
        expect(failure._tag).toBe("PayrailNetworkError")
      })
    )

    it.live("retries a mutation whose answer was lost with the same Idempotency-Key and gets the first outcome", () => {
      const recorder = recordingFetch(async (attempt, _request, send) => {
        const response = await send()
        if (attempt === 1) throw new TypeError("fetch failed: socket hang up")
        return response
      })
      const name = `Retried ${crypto.randomUUID()}`
      return Effect.gen(function* () {
        const client = yield* PayrailClient.PayrailClient
        const created = yield* client.customers.create({ payload: individual(name) })
        const keys = recorder.sent.map((request) => request.headers.get("idempotency-key"))
        expect(keys).toHaveLength(2)
        expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
        expect(keys[1]).toBe(keys[0])
        const everyone = yield* Stream.runCollect(
          PayrailClient.stream(client.customers.list, { urlParams: { limit: 100 } })
        )
        const named = Chunk.toReadonlyArray(everyone).filter(
          (customer) => customer.customerType === "INDIVIDUAL" && customer.fullName === name
        )
        expect(named.map((customer) => customer.id)).toEqual([created.id])
      }).pipe(Effect.provide(layer({ fetch: recorder.fetch })))
    })

    it.live("authenticates an agent with its bearer token", () =>
      Effect.gen(function* () {
        const platform = yield* PayrailClient.PayrailClient
        const customer = yield* platform.customers.create({ payload: individual("Agent Owner") })
        const { agent, deviceCode } = yield* Effect.promise(() =>
          fetch(`${server().baseUrl}/2025-10-13/agents`, {
            method: "POST",
            headers: {
              authorization: `Basic ${btoa(`${server().clientId}:${server().clientSecret}`)}`,
              "content-type": "application/json"
            },
            body: JSON.stringify({
              name: "Effect bot",
              customerId: customer.id,
              policy: {
                permissions: ["CREATE_QUOTES"],
                defaultExecutionMode: "AUTO",
                spendingLimits: { currency: "USD", perTransactionLimit: 50_000, dailyLimit: 100_000 }
              }
            })
          }).then((response) => response.json())
        )
        const installer = yield* PayrailClient.make({ baseUrl: server().baseUrl, auth: PayrailAuth.none })
        const redeemed = yield* installer.agentDeviceCodes.redeem({ path: { code: deviceCode.code } })
        const bot = yield* PayrailClient.make({
          baseUrl: server().baseUrl,
          auth: PayrailAuth.agent(redeemed.accessToken)
        })
        const me = yield* bot.agentMe.get()
        expect(me).toMatchObject({ id: agent.id, customerId: customer.id })
        const refused = yield* Effect.flip(bot.customers.list({ urlParams: {} }))
        expect(refused).toMatchObject({ status: 401, code: "UNAUTHORIZED" })
      }).pipe(Effect.provide(layer()))
    )
  })
}
