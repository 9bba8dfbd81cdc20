import { afterAll, beforeAll, expect, it } from "vitest"
import { PaymentJobs, Platform, Platforms, WebhookDeliveryJob } from "@payrail/core"
import { waitFor } from "../Waiting.js"
import { startVerifyingReceiver, type VerifyingReceiver } from "../webhooks/VerifyingReceiver.js"
import { describeOnEveryStore } from "./OnEveryStore.js"
import type { PaymentPlatform } from "./PaymentApp.js"

/*
 * OUTGOING_PAYMENT webhooks of payments made over HTTP, delivered by the job worker to a receiver that verifies
 * them with the standardwebhooks library, on every store.
 */

interface Delivered {
  readonly type: string
  readonly data?: unknown
}

describeOnEveryStore(
  "payment webhooks",
  "payment_webhooks",
  {
    handlers: [WebhookDeliveryJob.handler, PaymentJobs.settlementHandler, PaymentJobs.expiryHandler],
    webhooks: true,
    running: true
  },
  (app) => {
    let receiver: VerifyingReceiver
    // A platform whose endpoint is the receiver.
    let hooks: PaymentPlatform

    beforeAll(async () => {
      receiver = await startVerifyingReceiver()
      hooks = await app.newPlatform({
        config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, webhookEndpoint: receiver.url })
      })
    })
    afterAll(() => receiver.close())

    const deliveredFor = (transactionId: string): ReadonlyArray<Delivered> =>
      receiver.log.filter(
        (entry) =>
          entry.type === "OUTGOING_PAYMENT" && (entry.data as { id?: string } | undefined)?.id === transactionId
      )

    it("delivers OUTGOING_PAYMENT, verified by standardwebhooks, for each status change with the whole transaction", async () => {
      receiver.trust((await hooks.call("POST", "/webhooks/secret/rotate", {})).body.webhookSecret)
      const payer = (await hooks.newCustomer("Alice Hooks")).accounts.USD!
      const bob = await hooks.newCustomer("Bob Hooks")
      const payee = await hooks.externalUsd(bob.id, "123450001")
      await hooks.fund(payer, 10_000)
      // A payout crosses a rail: PROCESSING when executed, COMPLETED when the rail settles it.
      const quoted = await hooks.quote(payer, payee, 2_500, { immediatelyExecute: true })
      expect(quoted.status).toBe(201)
      const transactionId = quoted.body.transactionId
      await waitFor(() => deliveredFor(transactionId).length >= 2, "two OUTGOING_PAYMENT deliveries")
      const statuses = deliveredFor(transactionId).map((entry) => (entry.data as { status: string }).status)
      expect(statuses.sort()).toEqual(["COMPLETED", "PROCESSING"])
      const completed = deliveredFor(transactionId).find(
        (entry) => (entry.data as { status: string }).status === "COMPLETED"
      )
      const transaction = await hooks.transactionOf(transactionId)
      expect(completed?.data).toEqual(transaction)
      expect(receiver.refused()).toBe(0)
    })

    it("delivers one COMPLETED OUTGOING_PAYMENT for a payment between internal accounts, settled by its execute", async () => {
      const payer = (await hooks.newCustomer("Carol Hooks")).accounts.USD!
      const payee = (await hooks.newCustomer("Dan Hooks")).accounts.USD!
      await hooks.fund(payer, 10_000)
      const quoted = await hooks.quote(payer, payee, 1_000, { immediatelyExecute: true })
      expect(quoted.status).toBe(201)
      expect(quoted.body.status).toBe("COMPLETED")
      const transactionId = quoted.body.transactionId
      await waitFor(() => deliveredFor(transactionId).length >= 1, "an OUTGOING_PAYMENT delivery")
      // Later deliveries of the same transaction would arrive in the same drain: give them a moment to show.
      await new Promise((resolve) => setTimeout(resolve, 300))
      const delivered = deliveredFor(transactionId)
      expect(delivered.map((entry) => (entry.data as { status: string }).status)).toEqual(["COMPLETED"])
      expect(delivered[0]?.data).toEqual(await hooks.transactionOf(transactionId))
      expect(receiver.refused()).toBe(0)
    })
  }
)
