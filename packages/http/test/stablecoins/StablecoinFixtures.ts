import { DateTime, Duration, Effect, Either } from "effect"
import { Jobs, Ledger, Outbox, type Stablecoin, StablecoinJobs, StablecoinSettlementJob } from "@payrail/core"
import { expect } from "vitest"
import type { Harness } from "../support/Harness.js"
import { base } from "../support/OverHttp.js"

/** A JSON answer with its status and headers. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, checked by each test
  readonly body: any
}

// One Spark wallet per platform: an address is one live external account per owner.
const sparkWallets = new Map<string, Promise<string>>()

/**
 * What the stablecoin tests do through `api`: requests with or without an `Idempotency-Key` (a fresh one unless
 * given), links, registrations, external accounts for mints and burns, and the ledger read directly.
 */
export const stablecoinsOf = (api: Harness) => {
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    options: { readonly key?: string | null; readonly auth?: string } = {}
  ): Promise<Answer> => {
    const key = options.key === undefined ? (method === "POST" ? globalThis.crypto.randomUUID() : null) : options.key
    const response = await api.request(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(key === null ? {} : { headers: { "idempotency-key": key } }),
      ...(options.auth === undefined ? {} : { auth: options.auth })
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
  }

  /** Links a provider account (201 expected unless the secret or account id is a refusal magic value). */
  const link = async (providerAccountId?: string, apiClientSecret = "provider_secret_456") =>
    send("POST", "/stablecoin-provider-accounts", {
      provider: "BRALE",
      apiClientId: `client_${globalThis.crypto.randomUUID()}`,
      apiClientSecret,
      ...(providerAccountId === undefined ? {} : { providerAccountId })
    })

  /** Registers a token (201 expected by the caller). */
  const register = (providerTokenIdentifier = "ACME", stablecoinProviderAccountId?: string) =>
    send("POST", "/stablecoins", {
      providerTokenIdentifier,
      networkTokenIdentifier: `btkn1${globalThis.crypto.randomUUID().replaceAll("-", "")}`,
      network: "SPARK_MAINNET",
      ...(stablecoinProviderAccountId === undefined ? {} : { stablecoinProviderAccountId })
    })

  const newExternalAccount = async (kind: "spark" | "bank") => {
    const made = await send(
      "POST",
      "/platform/external-accounts",
      kind === "spark"
        ? {
            currency: "BTC",
            accountInfo: {
              accountType: "SPARK_WALLET",
              address: "spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j"
            }
          }
        : {
            currency: "USD",
            accountInfo: {
              accountType: "USD_ACCOUNT",
              // Unique per call, ending in 000: no sandbox outcome is keyed to that suffix (a random one ended in
              // 105, the name check's INVALID_BANK_ACCOUNT, about once in a thousand runs).
              accountNumber: `${10_000_000 + Math.floor(Math.random() * 89_999_999)}000`,
              routingNumber: "021000021",
              beneficiary: { beneficiaryType: "BUSINESS", legalName: "Acme Treasury" }
            }
          },
      { key: null }
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    return made.body.id as string
  }

  /** The platform's Spark wallet (for mints), or a new USD bank account (for burn payouts). */
  const externalAccount = (kind: "spark" | "bank"): Promise<string> => {
    if (kind === "bank") return newExternalAccount(kind)
    const known = sparkWallets.get(api.platform.id)
    if (known !== undefined) return known
    const made = newExternalAccount(kind)
    sparkWallets.set(api.platform.id, made)
    return made
  }

  const mintBody = (amount: string, destination: string, extra: Record<string, unknown> = {}) => ({
    amount,
    fundingSource: { type: "WIRE" },
    destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: destination },
    ...extra
  })

  const burnBody = (amount: string, bank: string, extra: Record<string, unknown> = {}) => ({
    amount,
    source: { type: "PROVIDER_INTERNAL_BALANCE" },
    destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: bank, rail: "WIRE" },
    ...extra
  })

  /** The stablecoin's supply in base-currency minor units, as the ledger keeps it. */
  const supply = (stablecoinId: string) =>
    api.run(
      Effect.map(
        Effect.flatMap(Ledger.Ledger, (ledger) => ledger.balance(api.platform.id, stablecoinId)),
        (balance) => ({ posted: balance.postedMinor, reconciled: balance })
      )
    )

  /** Every currency's posted entries on the platform sum to zero, and the supply equals its entries. */
  const checkLedger = (stablecoinId: Stablecoin.StablecoinId | string) =>
    api.run(
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        for (const [, total] of yield* ledger.postedTotals(api.platform.id)) expect(total).toBe(0n)
        expect(yield* ledger.reconcile(api.platform.id, stablecoinId)).toEqual(
          yield* ledger.balance(api.platform.id, stablecoinId)
        )
      })
    )

  /** The webhooks of `operationId`, oldest first. */
  const webhooksOf = (operationId: string) =>
    api.run(
      Effect.map(
        Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)),
        (events) => events.filter((event) => event.data["id"] === operationId).map((event) => event.type)
      )
    )

  /** Claims and runs the settlement jobs of `operationId` (the others are released): how many ran. */
  const settle = async (operationId: string) => {
    const claimed = await api.run(
      Effect.gen(function* () {
        const jobs = yield* Jobs.Jobs
        const all = yield* jobs.claim({ limit: 1_000, now: DateTime.unsafeNow(), lease: Duration.minutes(1) })
        const mine = all.filter(
          (candidate) =>
            candidate.job.kind === StablecoinSettlementJob.kind &&
            candidate.job.payload["stablecoinOperationId"] === operationId
        )
        for (const other of all) if (!mine.includes(other)) yield* jobs.release(other)
        return mine
      })
    )
    for (const job of claimed) {
      const result = await api.run(
        Effect.either(Effect.flatMap(StablecoinJobs.StablecoinJobs, (jobs) => jobs.settle(job.job)))
      )
      expect(Either.isRight(result)).toBe(true)
      await api.run(Effect.flatMap(Jobs.Jobs, (jobs) => jobs.complete(job)))
    }
    return claimed.length
  }

  return { settle, send, link, register, externalAccount, mintBody, burnBody, supply, checkLedger, webhooksOf }
}
