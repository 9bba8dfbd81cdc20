import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Duration, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import {
  Domain,
  Ids,
  JobWorker,
  PaymentJobs,
  Platform,
  Platforms,
  type Storage,
  WebhookDeliveryJob
} from "@payrail/core"
import { WebHandler } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import * as NodeWebhookTransport from "../../src/webhooks/NodeWebhookTransport.js"
import { createTemporaryDatabase, type TemporaryDatabase } from "../TemporaryDatabase.js"
import { startVerifyingReceiver, type VerifyingReceiver } from "../webhooks/VerifyingReceiver.js"

const base = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL

type Services = Domain.Services | Storage.Services | Ids.Ids
type Json = Record<string, unknown>
interface Delivered {
  readonly type: string
  readonly data?: unknown
}

const waitFor = async (condition: () => boolean, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const suite = (
  name: string,
  storage: () => Promise<{ layer: Layer.Layer<Storage.Services, unknown>; dispose: () => Promise<void> }>
) =>
  describe(`payment webhooks on ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
    let web: ReturnType<typeof WebHandler.make>
    let receiver: VerifyingReceiver
    let dispose = async () => {}
    let basic = ""

    beforeAll(async () => {
      receiver = await startVerifyingReceiver()
      const store = await storage()
      dispose = store.dispose
      const services = Domain.layer.pipe(
        Layer.provide(NodeWebhookTransport.layer()),
        Layer.provideMerge(store.layer),
        Layer.provide(Sandbox.layer),
        Layer.provideMerge(Ids.layer)
      )
      const worker = Layer.scopedDiscard(
        Effect.forkScoped(
          JobWorker.run<Domain.Services>(
            [WebhookDeliveryJob.handler, PaymentJobs.settlementHandler, PaymentJobs.expiryHandler],
            {
              concurrency: 8,
              lease: Duration.seconds(30),
              shutdownGrace: Duration.seconds(1)
            }
          )
        )
      )
      runtime = ManagedRuntime.make(Layer.provideMerge(worker, services))
      const context = await runtime.runPromise(Effect.context<Services>())
      web = WebHandler.make({ services: Layer.succeedContext(context) })
      basic = await runtime.runPromise(
        Effect.gen(function* () {
          const platforms = yield* Platforms.Platforms
          const config = new Platform.PlatformConfig({ ...Platforms.defaultConfig, webhookEndpoint: receiver.url })
          const platform = yield* platforms.create({ name: "Payment webhooks", environment: "SANDBOX", config })
          const issued = yield* platforms.issueToken({
            platformId: platform.id,
            name: "hooks",
            permissions: ["VIEW", "TRANSACT", "MANAGE"]
          })
          return `Basic ${btoa(`${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`)}`
        })
      )
    })

    afterAll(async () => {
      await web.dispose()
      await runtime.dispose()
      await dispose()
      await receiver.close()
    })

    const call = async (method: string, route: string, body?: unknown) => {
      const response = await web.handler(
        new Request(`http://payrail.test${base}${route}`, {
          method,
          headers: { authorization: basic, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      )
      return { status: response.status, body: (await response.json()) as Json }
    }

    const usdAccountOf = async (fullName: string) => {
      const customer = await call("POST", "/customers", { customerType: "INDIVIDUAL", fullName })
      const accounts = (await call("GET", `/internal-accounts?customerId=${String(customer.body["id"])}`)).body
      const data = accounts["data"] as ReadonlyArray<{ id: string; type: string }>
      return data.find((account) => account.type !== "EMBEDDED_WALLET")!.id
    }

    const deliveredFor = (transactionId: string): ReadonlyArray<Delivered> =>
      receiver.log.filter(
        (entry) =>
          entry.type === "OUTGOING_PAYMENT" && (entry.data as { id?: string } | undefined)?.id === transactionId
      )

    const usdBank = async (customerId: string) => {
      const created = await call("POST", "/customers/external-accounts", {
        customerId,
        currency: "USD",
        accountInfo: {
          accountType: "USD_ACCOUNT",
          accountNumber: "123450001",
          routingNumber: "021000021",
          beneficiary: {
            beneficiaryType: "INDIVIDUAL",
            fullName: "Bob Hooks",
            birthDate: "1990-01-15",
            nationality: "US",
            address: { line1: "1 Main St", city: "New York", state: "NY", postalCode: "10001", country: "US" }
          }
        }
      })
      expect(created.status).toBe(201)
      return String(created.body["id"])
    }

    it("delivers OUTGOING_PAYMENT, verified by standardwebhooks, for each status change with the whole transaction", async () => {
      receiver.trust(String((await call("POST", "/webhooks/secret/rotate", {})).body["webhookSecret"]))
      const payer = await usdAccountOf("Alice Hooks")
      const bob = await call("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Bob Hooks" })
      const payee = await usdBank(String(bob.body["id"]))
      expect((await call("POST", `/sandbox/internal-accounts/${payer}/fund`, { amount: 10_000 })).status).toBe(200)
      // A payout crosses a rail: PROCESSING when executed, COMPLETED when the rail settles it.
      const quoted = await call("POST", "/quotes", {
        source: { sourceType: "ACCOUNT", accountId: payer },
        destination: { destinationType: "ACCOUNT", accountId: payee },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: 2_500,
        immediatelyExecute: true
      })
      expect(quoted.status).toBe(201)
      const transactionId = String(quoted.body["transactionId"])
      await waitFor(() => deliveredFor(transactionId).length >= 2, "two OUTGOING_PAYMENT deliveries")
      const statuses = deliveredFor(transactionId).map((entry) => (entry.data as { status: string }).status)
      expect(statuses.sort()).toEqual(["COMPLETED", "PROCESSING"])
      const completed = deliveredFor(transactionId).find(
        (entry) => (entry.data as { status: string }).status === "COMPLETED"
      )
      const transaction = (await call("GET", `/transactions/${transactionId}`)).body
      expect(completed?.data).toEqual(transaction)
      expect(receiver.refused()).toBe(0)
    })

    it("delivers one COMPLETED OUTGOING_PAYMENT for a payment between internal accounts, settled by its execute", async () => {
      const payer = await usdAccountOf("Carol Hooks")
      const payee = await usdAccountOf("Dan Hooks")
      expect((await call("POST", `/sandbox/internal-accounts/${payer}/fund`, { amount: 10_000 })).status).toBe(200)
      const quoted = await call("POST", "/quotes", {
        source: { sourceType: "ACCOUNT", accountId: payer },
        destination: { destinationType: "ACCOUNT", accountId: payee },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: 1_000,
        immediatelyExecute: true
      })
      expect(quoted.status).toBe(201)
      expect(quoted.body["status"]).toBe("COMPLETED")
      const transactionId = String(quoted.body["transactionId"])
      await waitFor(() => deliveredFor(transactionId).length >= 1, "an OUTGOING_PAYMENT delivery")
      // Later deliveries of the same transaction would arrive in the same drain: give them a moment to show.
      await new Promise((resolve) => setTimeout(resolve, 300))
      const delivered = deliveredFor(transactionId)
      expect(delivered.map((entry) => (entry.data as { status: string }).status)).toEqual(["COMPLETED"])
      expect(delivered[0]?.data).toEqual((await call("GET", `/transactions/${transactionId}`)).body)
      expect(receiver.refused()).toBe(0)
    })
  })

suite("memory", async () => ({ layer: StorageMemory.layer, dispose: async () => {} }))
if (databaseUrl !== undefined) {
  let database: TemporaryDatabase | undefined
  suite("PostgreSQL", async () => {
    database = await createTemporaryDatabase(databaseUrl, "payment_webhooks")
    return {
      layer: StoragePostgres.layerPostgres(Redacted.make(database.url)),
      dispose: async () => database?.drop()
    }
  })
}
