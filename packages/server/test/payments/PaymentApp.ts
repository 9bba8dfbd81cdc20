import { expect } from "vitest"
import { Duration, Effect, Fiber, Layer, ManagedRuntime, Option, Redacted } from "effect"
import {
  AuthenticationLimits,
  Domain,
  Ids,
  type JobHandler,
  JobWorker,
  Jobs,
  Ledger,
  PaymentJobs,
  Platform,
  Platforms,
  type Storage
} from "@payrail/core"
import { WebHandler } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import * as NodeWebhookTransport from "../../src/webhooks/NodeWebhookTransport.js"
import type { Store } from "../TestStores.js"
import type { Body } from "./ApiBody.js"
import { JobActivity } from "./JobActivity.js"

export type { Body } from "./ApiBody.js"

/*
 * The API in process, on one storage adapter, with a job worker (the payment jobs', unless a test names others) that
 * a test can keep running (as a server does) or run only when it asks the jobs to settle (so that every other step
 * of a test sees no job run). Platforms are made through the domain, each with a token, and called over HTTP.
 */

const base = "/2025-10-13"

type Services = Domain.Services | Storage.Services | Ids.Ids

/** A customer made through the API: its id and its internal accounts by currency (the embedded wallet left out). */
export interface Customer {
  readonly id: string
  readonly accounts: Readonly<Record<string, string>>
}

/** A platform seen through its API with a token (of every permission unless it was made with fewer). */
export interface PaymentPlatform {
  readonly platform: Platform.Platform
  /** Sends a request as the platform (or with `authorization` from `headers`) and reads the JSON answer. */
  readonly call: (
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>
  ) => Promise<{ readonly status: number; readonly headers: Headers; readonly body: Body }>
  /** A new customer and its internal accounts by currency (the embedded wallet left out). */
  readonly newCustomer: (fullName: string) => Promise<Customer>
  /** Sandbox funding of an internal account. */
  readonly fund: (accountId: string, amount: number) => Promise<void>
  /** An internal account's available and total balance, as the API shows them. */
  readonly balanceOf: (accountId: string) => Promise<{ readonly available: number; readonly total: number }>
  /** A customer's external USD account (ACH, wire, RTP, FedNow) with this account number. */
  readonly externalUsd: (customerId: string, accountNumber: string) => Promise<string>
  /** `POST /quotes` from one account to another with SENDING locked at `amount`, plus `extra` fields. */
  readonly quote: (
    source: string,
    destination: string,
    amount: number,
    extra?: Record<string, unknown>
  ) => Promise<{ readonly status: number; readonly body: Body }>
  readonly transactionOf: (id: string) => Promise<Body>
  /** Waits (in real time, the worker running) until the transaction is in `status`. */
  readonly waitForStatus: (transactionId: string, status: string, timeoutMs?: number) => Promise<Body>
  /** Moves the platform's sandbox clock ahead. */
  readonly advance: (seconds: number) => Promise<void>
  /** The ledger's sums per currency of the platform's posted entries. */
  readonly postedTotals: () => Promise<ReadonlyMap<string, bigint>>
}

/** How `newPlatform` makes a platform: by default a sandbox one with the app's config and every permission. */
export interface PlatformOptions {
  readonly config?: Platform.PlatformConfig
  readonly environment?: Platform.Environment
  readonly permissions?: ReadonlyArray<"VIEW" | "TRANSACT" | "MANAGE">
}

/** How `makePaymentApp` builds the app; each field's default is what the payment tests run on. */
export interface PaymentAppOptions {
  /** The first platform's config and `newPlatform`'s default: `paymentConfig`. */
  readonly config?: Platform.PlatformConfig
  /** The jobs the worker runs: the payment jobs (settlement, expiry, incoming completion). */
  readonly handlers?: ReadonlyArray<JobHandler.JobHandler<Domain.Services | Storage.Services>>
  /** Deliver webhooks over HTTP as the server does (`NodeWebhookTransport`): off, none leaves the process. */
  readonly webhooks?: boolean
}

/** The API on one store with a job worker, and a first sandbox platform (the app's own fields). */
export interface PaymentApp extends PaymentPlatform {
  /** Another platform on the same API, store and worker. */
  readonly newPlatform: (options?: PlatformOptions) => Promise<PaymentPlatform>
  /** A new sandbox platform and a customer of it named `fullName`, its USD account funded with `usd` if given. */
  readonly newPlatformWithCustomer: (
    fullName: string,
    usd?: number
  ) => Promise<readonly [platform: PaymentPlatform, customer: Customer]>
  /** Runs the worker until no job is due and none is running, then stops it (unless it was running already). */
  readonly settle: (timeoutMs?: number) => Promise<void>
  readonly startWorker: () => void
  readonly stopWorker: () => Promise<void>
  /** Why jobs failed so far (each retried or buried attempt), and how many jobs were claimed. */
  readonly jobs: { readonly failures: ReadonlyArray<string>; readonly claimed: () => number }
  /** Runs an effect against the app's services. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Services>) => Promise<A>
  readonly dispose: () => Promise<void>
}

/** The default config supporting `currencies`, with limits wide enough that only a test that asks meets them. */
export const paymentConfigOf = (currencies: ReadonlyArray<string>) =>
  new Platform.PlatformConfig({
    ...Platforms.defaultConfig,
    supportedCurrencies: currencies.map(
      (currencyCode) => new Platform.SupportedCurrency({ currencyCode, minAmount: 1, maxAmount: 10_000_000_000 })
    )
  })

/** Every currency the payment tests use (USD, EUR, MXN, USDC), each with `paymentConfigOf`'s wide limits. */
export const paymentConfig = paymentConfigOf(["USD", "EUR", "MXN", "USDC"])

/** The `accountInfo` of a US bank account with this account number. */
export const usdAccount = (accountNumber: string) => ({
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

const paymentHandlers = [
  PaymentJobs.settlementHandler,
  PaymentJobs.expiryHandler,
  PaymentJobs.incomingCompletionHandler
]

/** Starts the API on `store` with a first sandbox platform of `options.config`; the worker starts when asked. */
export const makePaymentApp = async (store: Store, options: PaymentAppOptions = {}) => {
  const config = options.config ?? paymentConfig
  const activity = new JobActivity()
  const tracked = Layer.effect(
    Jobs.Jobs,
    Effect.map(Jobs.Jobs, (jobs) => activity.wrap(jobs))
  ).pipe(Layer.provide(store.layer))
  const domain =
    options.webhooks === true ? Domain.layer.pipe(Layer.provide(NodeWebhookTransport.layer())) : Domain.layer
  const services = domain.pipe(
    Layer.provideMerge(Layer.merge(store.layer, tracked)),
    Layer.provide(Sandbox.layer),
    Layer.provide(WalletAuth.layerEphemeral),
    // Races send hundreds of requests a second with one token: no request limit.
    Layer.provide(Layer.succeed(AuthenticationLimits.AuthenticationLimits, AuthenticationLimits.none)),
    Layer.provideMerge(Ids.layer)
  )
  const runtime = ManagedRuntime.make(services)
  const context = await runtime.runPromise(Effect.context<Services>())
  const web = WebHandler.make({ services: Layer.succeedContext(context) })
  let worker: Fiber.RuntimeFiber<never, unknown> | undefined
  const startWorker = () => {
    worker ??= runtime.runFork(
      JobWorker.run(options.handlers ?? paymentHandlers, {
        concurrency: 8,
        lease: Duration.seconds(30),
        shutdownGrace: Duration.seconds(5)
      })
    )
  }
  const stopWorker = async () => {
    const running = worker
    worker = undefined
    if (running !== undefined) await runtime.runPromise(Fiber.interrupt(running))
  }

  const idle = async () => {
    if (activity.busy) return false
    const next = await runtime.runPromise(Effect.flatMap(Jobs.Jobs, (jobs) => jobs.nextDueAt))
    // Stores speak real time: a job is due when its due time is not in the future.
    return !activity.busy && (Option.isNone(next) || next.value.epochMillis > Date.now())
  }

  const newPlatform = async (made: PlatformOptions = {}): Promise<PaymentPlatform> => {
    const { platform, basic } = await runtime.runPromise(
      Effect.gen(function* () {
        const platforms = yield* Platforms.Platforms
        const platform = yield* platforms.create({
          name: "Payments",
          environment: made.environment ?? "SANDBOX",
          config: made.config ?? config
        })
        const issued = yield* platforms.issueToken({
          platformId: platform.id,
          name: "payments",
          permissions: made.permissions ?? ["VIEW", "TRANSACT", "MANAGE"]
        })
        return { platform, basic: `Basic ${btoa(`${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`)}` }
      })
    )
    const call: PaymentPlatform["call"] = async (method, route, body, headers = {}) => {
      const response = await web.handler(
        new Request(`http://payrail.test${base}${route}`, {
          method,
          headers: { authorization: basic, "content-type": "application/json", ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      )
      return { status: response.status, headers: response.headers, body: (await response.json()) as Body }
    }

    const transactionOf = async (id: string) => (await call("GET", `/transactions/${id}`)).body

    const session: PaymentPlatform = {
      platform,
      call,
      newCustomer: async (fullName) => {
        const created = await call("POST", "/customers", { customerType: "INDIVIDUAL", fullName })
        expect(created.status).toBe(201)
        const accounts = await call("GET", `/internal-accounts?customerId=${created.body.id}&limit=100`)
        const byCurrency: Record<string, string> = {}
        for (const account of accounts.body.data) {
          if (account.type !== "EMBEDDED_WALLET") byCurrency[account.balance.currency.code] = account.id
        }
        return { id: created.body.id, accounts: byCurrency }
      },
      fund: async (accountId, amount) =>
        expect((await call("POST", `/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200),
      balanceOf: async (accountId) => {
        const account = await call("GET", `/internal-accounts/${accountId}`)
        expect(account.status).toBe(200)
        return { available: account.body.balance.amount, total: account.body.totalBalance.amount }
      },
      externalUsd: async (customerId, accountNumber) => {
        const created = await call("POST", "/customers/external-accounts", {
          customerId,
          currency: "USD",
          accountInfo: { ...usdAccount(accountNumber), paymentRails: ["ACH", "WIRE", "RTP", "FEDNOW"] }
        })
        expect(created.status).toBe(201)
        return created.body.id
      },
      quote: (source, destination, amount, extra = {}) =>
        call("POST", "/quotes", {
          source: { sourceType: "ACCOUNT", accountId: source },
          destination: { destinationType: "ACCOUNT", accountId: destination },
          lockedCurrencySide: "SENDING",
          lockedCurrencyAmount: amount,
          ...extra
        }),
      transactionOf,
      waitForStatus: async (transactionId, status, timeoutMs = 20_000) => {
        const deadline = Date.now() + timeoutMs
        for (;;) {
          const transaction = await transactionOf(transactionId)
          if (transaction.status === status) return transaction
          if (Date.now() > deadline) throw new Error(`${transactionId} is ${transaction.status}, not ${status}`)
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
      },
      advance: async (seconds) => expect((await call("POST", "/sandbox/clock/advance", { seconds })).status).toBe(200),
      postedTotals: () =>
        runtime.runPromise(Effect.flatMap(Ledger.Ledger, (ledger) => ledger.postedTotals(platform.id)))
    }
    return session
  }

  const app: PaymentApp = {
    ...(await newPlatform()),
    newPlatform,
    newPlatformWithCustomer: async (fullName, usd) => {
      const platform = await newPlatform()
      const customer = await platform.newCustomer(fullName)
      if (usd !== undefined) await platform.fund(customer.accounts.USD!, usd)
      return [platform, customer] as const
    },
    settle: async (timeoutMs = 30_000) => {
      const wasRunning = worker !== undefined
      startWorker()
      const deadline = Date.now() + timeoutMs
      // Idle twice in a row: a handler's follow-up job is enqueued before its own job is settled, so one quiet
      // look can only be wrong if a claim started between its two reads; the second look catches that.
      let quiet = 0
      while (quiet < 2) {
        quiet = (await idle()) ? quiet + 1 : 0
        if (Date.now() > deadline) throw new Error("the payment jobs did not settle in time")
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      if (!wasRunning) await stopWorker()
    },
    startWorker,
    stopWorker,
    jobs: { failures: activity.failures, claimed: () => activity.claimed },
    run: (effect) => runtime.runPromise(effect),
    dispose: async () => {
      await stopWorker()
      await web.dispose()
      await runtime.dispose()
      await store.dispose()
    }
  }
  return app
}
