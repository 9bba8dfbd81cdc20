import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Duration, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import {
  Domain,
  Ids,
  JobWorker,
  Ledger,
  LightningDestination,
  PaymentJobs,
  Platform,
  Platforms,
  type Storage,
  SystemAccounts
} from "@payrail/core"
import { WebHandler } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import { createTemporaryDatabase, type TemporaryDatabase } from "../TemporaryDatabase.js"

const base = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL

type Services = Domain.Services | Storage.Services | Ids.Ids
type Json = Record<string, unknown>

/** The fields these tests read from quotes, transactions, accounts, pages and error bodies. */
interface Body {
  readonly id: string
  readonly status: string
  readonly code: string
  readonly type: string
  readonly transactionId: string
  readonly totalSendingAmount: number
  readonly totalReceivingAmount: number
  readonly exchangeRate: number
  readonly feesIncluded: number
  readonly sendingCurrency: { readonly code: string }
  readonly receivingCurrency: { readonly code: string }
  readonly balance: { readonly amount: number; readonly currency: { readonly code: string } }
  readonly totalBalance: { readonly amount: number }
  readonly settledAt?: string
  readonly failureReason?: string
  readonly reconciliationInstructions?: { readonly reference?: string }
  readonly paymentInstructions: ReadonlyArray<{
    readonly accountOrWalletInfo: {
      readonly accountType: string
      readonly reference?: string
      readonly invoice?: string
    }
  }>
  readonly data: ReadonlyArray<Body>
  readonly hasMore: boolean
  readonly nextCursor?: string
  readonly totalCount?: number
}

const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  supportedCurrencies: ["USD", "EUR", "MXN", "USDC", "BTC"].map(
    (currencyCode) => new Platform.SupportedCurrency({ currencyCode, minAmount: 1, maxAmount: 10_000_000_000 })
  )
})

const usdAccount = (accountNumber: string) => ({
  accountType: "USD_ACCOUNT",
  accountNumber,
  routingNumber: "021000021",
  beneficiary: {
    beneficiaryType: "INDIVIDUAL",
    fullName: "Kim Lee",
    birthDate: "1990-01-15",
    nationality: "US",
    address: { line1: "1 Main St", city: "New York", state: "NY", postalCode: "10001", country: "US" }
  }
})

const suite = (
  name: string,
  storage: () => Promise<{ layer: Layer.Layer<Storage.Services, unknown>; dispose: () => Promise<void> }>
) =>
  describe(`quotes and transactions end to end on ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
    let web: ReturnType<typeof WebHandler.make>
    let dispose = async () => {}
    let platform: Platform.Platform
    let basic = ""

    beforeAll(async () => {
      const store = await storage()
      dispose = store.dispose
      const services = Domain.layer.pipe(
        Layer.provideMerge(store.layer),
        Layer.provide(Sandbox.layer),
        Layer.provideMerge(Ids.layer)
      )
      const worker = Layer.scopedDiscard(
        Effect.forkScoped(
          JobWorker.run([PaymentJobs.settlementHandler, PaymentJobs.expiryHandler], {
            concurrency: 8,
            lease: Duration.seconds(30),
            shutdownGrace: Duration.seconds(1)
          })
        )
      )
      runtime = ManagedRuntime.make(Layer.provideMerge(worker, services))
      const context = await runtime.runPromise(Effect.context<Services>())
      web = WebHandler.make({ services: Layer.succeedContext(context) })
      const created = await runtime.runPromise(
        Effect.gen(function* () {
          const platforms = yield* Platforms.Platforms
          const platform = yield* platforms.create({ name: "Payments", environment: "SANDBOX", config })
          const issued = yield* platforms.issueToken({
            platformId: platform.id,
            name: "payments",
            permissions: ["VIEW", "TRANSACT", "MANAGE"]
          })
          return { platform, basic: `Basic ${btoa(`${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`)}` }
        })
      )
      platform = created.platform
      basic = created.basic
    })

    afterAll(async () => {
      await web.dispose()
      await runtime.dispose()
      await dispose()
    })

    const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await web.handler(
        new Request(`http://payrail.test${base}${route}`, {
          method,
          headers: { authorization: basic, "content-type": "application/json", ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      )
      return { status: response.status, headers: response.headers, body: (await response.json()) as Body }
    }

    const newCustomer = async (fullName: string) => {
      const created = await call("POST", "/customers", { customerType: "INDIVIDUAL", fullName })
      expect(created.status).toBe(201)
      const accounts = await call("GET", `/internal-accounts?customerId=${created.body.id}`)
      const byCurrency: Record<string, string> = {}
      for (const account of accounts.body.data) {
        if (account.type !== "EMBEDDED_WALLET") byCurrency[account.balance.currency.code] = account.id
      }
      return { id: String(created.body.id), accounts: byCurrency }
    }

    const fund = async (accountId: string, amount: number) =>
      expect((await call("POST", `/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200)

    const balanceOf = async (accountId: string) => {
      const account = await call("GET", `/internal-accounts/${accountId}`)
      return { available: account.body.balance.amount, total: account.body.totalBalance.amount }
    }

    const externalUsd = async (customerId: string, accountNumber: string) => {
      const created = await call("POST", "/customers/external-accounts", {
        customerId,
        currency: "USD",
        accountInfo: usdAccount(accountNumber)
      })
      expect(created.status).toBe(201)
      return String(created.body.id)
    }

    const transactionOf = async (id: string) => (await call("GET", `/transactions/${id}`)).body

    const waitForStatus = async (transactionId: string, status: string, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const transaction = await transactionOf(transactionId)
        if (transaction.status === status) return transaction
        if (Date.now() > deadline) throw new Error(`${transactionId} is ${transaction.status}, not ${status}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }

    const ledgerBalances = () =>
      runtime.runPromise(Effect.flatMap(Ledger.Ledger, (ledger) => ledger.postedTotals(platform.id)))

    const quote = (source: string, destination: string, amount: number, extra: Json = {}) =>
      call("POST", "/quotes", {
        source: { sourceType: "ACCOUNT", accountId: source },
        destination: { destinationType: "ACCOUNT", accountId: destination },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: amount,
        ...extra
      })

    it("pays between two customers' USD accounts: quote, then an execute that settles it, balances and the transaction", async () => {
      const alice = await newCustomer("Alice Payer")
      const bob = await newCustomer("Bob Payee")
      await fund(alice.accounts.USD!, 50_000)
      const quoted = await quote(alice.accounts.USD!, bob.accounts.USD!, 10_000, { description: "Rent" })
      expect(quoted.status).toBe(201)
      expect(quoted.body).toMatchObject({
        status: "PENDING",
        sendingCurrency: { code: "USD" },
        receivingCurrency: { code: "USD" },
        totalSendingAmount: 10_000,
        totalReceivingAmount: 10_000,
        exchangeRate: 1,
        feesIncluded: 0,
        customerId: alice.id
      })
      const pending = await transactionOf(quoted.body.transactionId)
      expect(pending).toMatchObject({
        status: "PENDING",
        type: "OUTGOING",
        quoteId: quoted.body.id,
        customerId: alice.id
      })

      const executed = await call("POST", `/quotes/${quoted.body.id}/execute`)
      expect(executed.status).toBe(200)
      // Between internal accounts nothing crosses a rail: the execute settles the payment.
      expect(executed.body.status).toBe("COMPLETED")
      const settled = await transactionOf(quoted.body.transactionId)
      expect(settled.status).toBe("COMPLETED")
      expect(settled).toMatchObject({
        sentAmount: { amount: 10_000, currency: { code: "USD" } },
        receivedAmount: { amount: 10_000, currency: { code: "USD" } }
      })
      expect(settled.settledAt).toBeDefined()
      expect((await call("GET", `/quotes/${quoted.body.id}`)).body.status).toBe("COMPLETED")
      expect(await balanceOf(alice.accounts.USD!)).toEqual({ available: 40_000, total: 40_000 })
      expect(await balanceOf(bob.accounts.USD!)).toEqual({ available: 10_000, total: 10_000 })
      for (const total of (await ledgerBalances()).values()) expect(total).toBe(0n)
    })

    it("converts USD to EUR: fees stay on the platform's fee account and the pricing rule holds", async () => {
      const alice = await newCustomer("Alice Converter")
      const bob = await newCustomer("Bob Euro")
      await fund(alice.accounts.USD!, 100_000)
      const quoted = await quote(alice.accounts.USD!, bob.accounts.EUR!, 25_000)
      expect(quoted.status).toBe(201)
      const q = quoted.body
      expect(q.sendingCurrency.code).toBe("USD")
      expect(q.receivingCurrency.code).toBe("EUR")
      expect(q.totalSendingAmount).toBe(25_000)
      expect(q.feesIncluded).toBeGreaterThan(0)
      // totalSendingAmount = ceil(totalReceivingAmount × exchangeRate) + feesIncluded (both currencies have 2 decimals)
      expect(Math.ceil(q.totalReceivingAmount * q.exchangeRate - 1e-9)).toBe(q.totalSendingAmount - q.feesIncluded)
      expect((await call("POST", `/quotes/${q.id}/execute`)).status).toBe(200)
      await waitForStatus(q.transactionId, "COMPLETED")
      expect((await balanceOf(alice.accounts.USD!)).available).toBe(75_000)
      expect((await balanceOf(bob.accounts.EUR!)).available).toBe(q.totalReceivingAmount)
      const fees = await runtime.runPromise(
        Effect.flatMap(Ledger.Ledger, (ledger) =>
          ledger.balance(platform.id, SystemAccounts.accountId(platform.id, "FEES", "USD"))
        )
      )
      expect(fees.postedMinor).toBeGreaterThanOrEqual(BigInt(q.feesIncluded))
      for (const total of (await ledgerBalances()).values()) expect(total).toBe(0n)
    })

    it("refuses what the spec refuses: insufficient funds, a second execute, self payment, an expired quote", async () => {
      const alice = await newCustomer("Alice Refused")
      const bob = await newCustomer("Bob Refused")
      await fund(alice.accounts.USD!, 1_000)
      const tooMuch = await quote(alice.accounts.USD!, bob.accounts.USD!, 5_000)
      expect(tooMuch.status).toBe(201)
      const refused = await call("POST", `/quotes/${tooMuch.body.id}/execute`)
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" })
      expect((await call("GET", `/quotes/${tooMuch.body.id}`)).body.status).toBe("PENDING")
      expect(await balanceOf(alice.accounts.USD!)).toEqual({ available: 1_000, total: 1_000 })

      const self = await quote(alice.accounts.USD!, alice.accounts.USD!, 100)
      expect(self.status).toBe(400)
      expect(self.body.code).toBe("SELF_PAYMENT")

      const once = await quote(alice.accounts.USD!, bob.accounts.USD!, 100)
      expect((await call("POST", `/quotes/${once.body.id}/execute`)).status).toBe(200)
      const twice = await call("POST", `/quotes/${once.body.id}/execute`)
      expect(twice.status).toBe(409)
      expect(twice.body.code).toBe("INVALID_STATE_TRANSITION")

      const late = await quote(alice.accounts.USD!, bob.accounts.USD!, 100)
      expect((await call("POST", "/sandbox/clock/advance", { seconds: 301 })).status).toBe(200)
      const expired = await call("POST", `/quotes/${late.body.id}/execute`)
      expect(expired.status).toBe(400)
      expect(expired.body.code).toBe("QUOTE_EXPIRED")
      await waitForStatus(late.body.transactionId, "EXPIRED")
      expect((await call("GET", `/quotes/${late.body.id}`)).body.status).toBe("EXPIRED")
    })

    it("executes one quote once under 64 concurrent executes", async () => {
      const alice = await newCustomer("Alice Racer")
      const bob = await newCustomer("Bob Racer")
      await fund(alice.accounts.USD!, 10_000)
      const quoted = await quote(alice.accounts.USD!, bob.accounts.USD!, 1_000)
      const answers = await Promise.all(
        Array.from({ length: 64 }, () => call("POST", `/quotes/${quoted.body.id}/execute`))
      )
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(63)
      await waitForStatus(quoted.body.transactionId, "COMPLETED")
      expect((await balanceOf(alice.accounts.USD!)).total).toBe(9_000)
    })

    it("pays out to external accounts by the sandbox suffixes, driven by the sandbox clock", async () => {
      const alice = await newCustomer("Alice Payout")
      await fund(alice.accounts.USD!, 1_000_000)
      const payout = async (accountNumber: string) => {
        const destination = await externalUsd(alice.id, accountNumber)
        const quoted = await quote(alice.accounts.USD!, destination, 1_000, { immediatelyExecute: true })
        expect(quoted.status).toBe(201)
        expect(quoted.body.status).toBe("PROCESSING")
        return quoted.body
      }
      const ok = await payout("1234567001")
      const failed = await payout("1234567002")
      const slow = await payout("1234567003")
      const undelivered = await payout("1234567004")
      const returned = await payout("1234567005")
      const cancelled = await payout("1234567006")
      const lost = await payout("1234567007")

      expect(await waitForStatus(ok.transactionId, "COMPLETED")).toMatchObject({ paymentRail: "ACH" })
      expect(await waitForStatus(failed.transactionId, "FAILED")).toMatchObject({
        failureReason: "QUOTE_EXECUTION_FAILED"
      })
      expect(await waitForStatus(undelivered.transactionId, "FAILED")).toMatchObject({
        failureReason: "COUNTERPARTY_POST_TX_FAILED"
      })
      expect(await waitForStatus(cancelled.transactionId, "FAILED")).toMatchObject({
        refund: { status: "COMPLETED", reason: "USER_CANCELLATION" }
      })
      expect(await waitForStatus(lost.transactionId, "FAILED")).toMatchObject({ refund: { status: "FAILED" } })
      await waitForStatus(returned.transactionId, "COMPLETED")
      expect((await transactionOf(slow.transactionId)).status).toBe("PROCESSING")

      // Six minutes of the platform's time: the slow payout completes, the returned one comes back.
      expect((await call("POST", "/sandbox/clock/advance", { seconds: 361 })).status).toBe(200)
      await waitForStatus(slow.transactionId, "COMPLETED")
      expect(await waitForStatus(returned.transactionId, "FAILED")).toMatchObject({
        failureReason: "PAYOUT_RETURNED",
        refund: { status: "COMPLETED", reason: "TRANSACTION_FAILED" }
      })
      // Left: the completed ones (001, 003) and the lost one (007); the failed, cancelled and returned came back.
      const balance = await balanceOf(alice.accounts.USD!)
      expect(balance).toEqual({ available: 1_000_000 - 3 * 1_000, total: 1_000_000 - 3 * 1_000 })
      for (const total of (await ledgerBalances()).values()) expect(total).toBe(0n)
    })

    it("funds REALTIME_FUNDING quotes through the sandbox payer: instructions, the exact amount, a mismatch", async () => {
      const bob = await newCustomer("Bob Realtime")
      const realtime = (currency: string, destination: string, amount: number) =>
        call("POST", "/quotes", {
          source: { sourceType: "REALTIME_FUNDING", currency },
          destination: { destinationType: "ACCOUNT", accountId: destination },
          lockedCurrencySide: "RECEIVING",
          lockedCurrencyAmount: amount
        })
      const quoted = await realtime("USD", bob.accounts.EUR!, 5_000)
      expect(quoted.status).toBe(201)
      expect(quoted.body.totalReceivingAmount).toBe(5_000)
      const [instructions] = quoted.body.paymentInstructions
      expect(instructions?.accountOrWalletInfo).toMatchObject({
        accountType: "USD_ACCOUNT",
        routingNumber: "021000021"
      })
      const reference = instructions?.accountOrWalletInfo.reference
      expect(reference).toMatch(/^PR[0-9A-F]{12}$/)
      const pending = await transactionOf(quoted.body.transactionId)
      expect(pending).toMatchObject({ type: "INCOMING", direction: "CREDIT", status: "PENDING" })
      expect(pending.reconciliationInstructions?.reference).toBe(reference)

      expect((await call("POST", `/quotes/${quoted.body.id}/execute`)).status).toBe(409)
      const wrongCurrency = await call("POST", "/sandbox/send", { quoteId: quoted.body.id, currencyCode: "EUR" })
      expect(wrongCurrency.status).toBe(400)
      expect(wrongCurrency.body).toMatchObject({ code: "INVALID_INPUT" })
      const sent = await call("POST", "/sandbox/send", { quoteId: quoted.body.id, currencyCode: "USD" })
      expect(sent.status).toBe(200)
      expect(sent.body.status).toBe("PROCESSING")
      await waitForStatus(quoted.body.transactionId, "COMPLETED")
      expect((await balanceOf(bob.accounts.EUR!)).available).toBe(5_000)
      expect((await call("POST", "/sandbox/send", { quoteId: quoted.body.id, currencyCode: "USD" })).status).toBe(409)

      const short = await realtime("USD", bob.accounts.USD!, 2_000)
      const mismatch = await call("POST", "/sandbox/send", {
        quoteId: short.body.id,
        currencyCode: "USD",
        currencyAmount: short.body.totalSendingAmount - 1
      })
      expect(mismatch.status).toBe(200)
      expect(mismatch.body).toMatchObject({
        status: "FAILED",
        failureReason: "FUNDING_AMOUNT_MISMATCH",
        refund: { status: "COMPLETED" }
      })
      expect((await call("GET", `/quotes/${short.body.id}`)).body.status).toBe("FAILED")
      expect((await balanceOf(bob.accounts.USD!)).available).toBe(0)

      const lightning = await realtime("BTC", bob.accounts.USD!, 1_000)
      expect(lightning.status).toBe(201)
      const invoice = lightning.body.paymentInstructions[0]?.accountOrWalletInfo.invoice ?? ""
      expect(LightningDestination.isBolt11Invoice(invoice)).toBe(true)
      expect(invoice.startsWith(`lnbc${lightning.body.totalSendingAmount * 10}n1`)).toBe(true)
      for (const total of (await ledgerBalances()).values()) expect(total).toBe(0n)
    })

    it("keeps the deprecated same-currency transfers: out and in, with the transfer table's outcomes", async () => {
      const alice = await newCustomer("Alice Transfers")
      await fund(alice.accounts.USD!, 100_000)
      const out = async (accountNumber: string, amount: number) => {
        const destination = await externalUsd(alice.id, accountNumber)
        return call("POST", "/transfer-out", {
          source: { accountId: alice.accounts.USD },
          destination: { accountId: destination },
          amount
        })
      }
      const sent = await out("2222222001", 10_000)
      expect(sent.status).toBe(201)
      expect(sent.headers.get("deprecation")).toBe("true")
      expect(sent.body).toMatchObject({ type: "OUTGOING", status: "PROCESSING" })
      await waitForStatus(sent.body.id, "COMPLETED")

      const broke = await out("2222222002", 1_000)
      expect(await waitForStatus(broke.body.id, "FAILED")).toMatchObject({ failureReason: "INSUFFICIENT_FUNDS" })
      const slow = await out("2222222005", 1_000)
      expect((await transactionOf(slow.body.id)).status).toBe("PROCESSING")
      expect((await call("POST", "/sandbox/clock/advance", { seconds: 31 })).status).toBe(200)
      await waitForStatus(slow.body.id, "FAILED")
      expect((await balanceOf(alice.accounts.USD!)).available).toBe(90_000)

      const source = await externalUsd(alice.id, "3333333001")
      const pulled = await call("POST", "/transfer-in", {
        source: { accountId: source },
        destination: { accountId: alice.accounts.USD },
        amount: 5_000
      })
      expect(pulled.status).toBe(201)
      expect(pulled.body).toMatchObject({ type: "INCOMING", direction: "DEBIT" })
      await waitForStatus(pulled.body.id, "COMPLETED")
      expect((await balanceOf(alice.accounts.USD!)).available).toBe(95_000)

      const bounced = await call("POST", "/transfer-in", {
        source: { accountId: await externalUsd(alice.id, "3333333003") },
        destination: { accountId: alice.accounts.USD },
        amount: 5_000
      })
      expect(await waitForStatus(bounced.body.id, "FAILED")).toMatchObject({ failureReason: "ACCOUNT_INVALID" })
      expect((await balanceOf(alice.accounts.USD!)).total).toBe(95_000)

      const noAmount = await call("POST", "/transfer-in", {
        source: { accountId: source },
        destination: { accountId: alice.accounts.USD }
      })
      expect(noAmount.status).toBe(400)
      expect(noAmount.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "amount" }] } })
      const converting = await call("POST", "/transfer-out", {
        source: { accountId: alice.accounts.EUR },
        destination: { accountId: source },
        amount: 100
      })
      expect(converting.status).toBe(400)
      for (const total of (await ledgerBalances()).values()) expect(total).toBe(0n)
    })

    it("lists transactions newest first, filtered and in keyset pages", async () => {
      const alice = await newCustomer("Alice Lister")
      const bob = await newCustomer("Bob Lister")
      await fund(alice.accounts.USD!, 100_000)
      const ids: Array<string> = []
      for (let index = 0; index < 5; index++) {
        const quoted = await quote(alice.accounts.USD!, bob.accounts.USD!, 100 + index)
        ids.push(quoted.body.transactionId)
      }
      const first = await call("GET", `/transactions?customerId=${alice.id}&limit=2`)
      expect(first.status).toBe(200)
      expect(first.body.data.map((row: Body) => row.id)).toEqual([ids[4], ids[3]])
      expect(first.body.hasMore).toBe(true)
      expect(first.body.totalCount).toBeUndefined()
      const second = await call("GET", `/transactions?customerId=${alice.id}&limit=2&cursor=${first.body.nextCursor}`)
      expect(second.body.data.map((row: Body) => row.id)).toEqual([ids[2], ids[1]])
      const ascending = await call("GET", `/transactions?customerId=${alice.id}&sortOrder=asc&status=PENDING`)
      expect(ascending.body.data.map((row: Body) => row.id)).toEqual(ids)
      const byAccount = await call("GET", `/transactions?accountIdentifier=${bob.accounts.USD}&limit=100`)
      expect(byAccount.body.data.map((row: Body) => row.id)).toEqual([...ids].reverse())
      const missing = await call("GET", "/transactions/Transaction:00000000-0000-4000-8000-000000000000")
      expect(missing.status).toBe(404)
      expect(missing.body.code).toBe("TRANSACTION_NOT_FOUND")
    })
  })

suite("memory", async () => ({ layer: StorageMemory.layer, dispose: async () => {} }))
suite("PGlite", async () => ({ layer: StoragePostgres.layerPglite(), dispose: async () => {} }))
if (databaseUrl !== undefined) {
  let database: TemporaryDatabase | undefined
  suite("PostgreSQL", async () => {
    database = await createTemporaryDatabase(databaseUrl, "quotes_e2e")
    return {
      layer: StoragePostgres.layerPostgres(Redacted.make(database.url)),
      dispose: async () => database?.drop()
    }
  })
}
