import { expect } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import {
  type Errors,
  Page,
  type Platform,
  Stablecoin,
  StablecoinOperation,
  StablecoinProviderAccount,
  StablecoinRepo
} from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import { PaymentFixtures } from "../payments/index.js"

interface Keyed {
  readonly id: string
  readonly createdAt: DateTime.Utc
}

// Every page of an uncounted list, `limit` rows at a time, each page's invariants checked: the ids in page order.
const pagedIds = <A extends Keyed, R>(
  list: (page: Page.PageRequest) => Effect.Effect<Page.Page<A>, Errors.StoreFailure, R>,
  limit: number
) =>
  Effect.map(PaymentFixtures.allPages(list, limit), (pages) => {
    for (const page of pages) {
      expect(page.nextCursor !== undefined).toBe(page.hasMore)
      expect(page.data.length).toBeLessThanOrEqual(limit)
    }
    return pages.flatMap((page) => page.data.map((row) => row.id))
  })

// The ids of `rows` newest first, by `(createdAt, id)`.
const newestFirst = (rows: ReadonlyArray<Keyed>) => [...rows].sort(Page.compareNewestFirst).map((row) => row.id)

const base = DateTime.unsafeMake("2026-05-20T16:40:00.000Z")
const at = (offsetMillis: number) => DateTime.add(base, { millis: offsetMillis })
const uuid = () => globalThis.crypto.randomUUID()

const link = (
  platformId: Platform.PlatformId,
  options: { readonly status?: StablecoinProviderAccount.ProviderAccountStatus; readonly offsetMillis?: number } = {}
): StablecoinProviderAccount.StoredProviderAccount => {
  const time = at(options.offsetMillis ?? 0)
  const status = options.status ?? "ACTIVE"
  return {
    platformId,
    credentialRef: `sandbox:${uuid()}`,
    account: new StablecoinProviderAccount.StablecoinProviderAccount({
      id: StablecoinProviderAccount.StablecoinProviderAccountId.make(`StablecoinProviderAccount:${uuid()}`),
      provider: "BRALE",
      providerAccountId: `acct_${uuid()}`,
      providerEnvironment: "SANDBOX",
      status,
      ...(status === "ACTIVE" ? { lastVerifiedAt: time } : {}),
      createdAt: time,
      updatedAt: time
    })
  }
}

const coin = (
  linkId: StablecoinProviderAccount.StablecoinProviderAccountId,
  options: { readonly issuanceStatus?: Stablecoin.IssuanceStatus; readonly offsetMillis?: number } = {}
) => {
  const time = at(options.offsetMillis ?? 0)
  return new Stablecoin.Stablecoin({
    id: Stablecoin.StablecoinId.make(`Stablecoin:${uuid()}`),
    name: "Acme Dollar",
    symbol: "ACME",
    baseCurrency: "USD",
    network: "SPARK_MAINNET",
    decimals: 6,
    issuanceStatus: options.issuanceStatus ?? "PROVISIONED",
    gridOperationsStatus: "NOT_ENABLED",
    networkTokenIdentifier: `btkn1${uuid()}`,
    provider: "BRALE",
    stablecoinProviderAccountId: linkId,
    providerEnvironment: "SANDBOX",
    providerTokenIdentifier: "ACME",
    createdAt: time,
    updatedAt: time
  })
}

const operation = (stablecoin: Stablecoin.Stablecoin, offsetMillis: number, full: boolean) =>
  new StablecoinOperation.StablecoinOperation({
    id: StablecoinOperation.StablecoinOperationId.make(`StablecoinOperation:${uuid()}`),
    stablecoinId: stablecoin.id,
    operationType: full ? "MINT" : "BURN",
    status: full ? "COMPLETED" : "FAILED",
    amount: "1000000",
    provider: "BRALE",
    providerEnvironment: "SANDBOX",
    stablecoinProviderAccountId: stablecoin.stablecoinProviderAccountId,
    ...(full
      ? {
          fundingSource: { type: "ACH_DEBIT", externalAccountId: `ExternalAccount:${uuid()}` },
          destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: `ExternalAccount:${uuid()}` },
          providerStatus: "complete",
          description: "Initial program funding mint"
        }
      : {
          source: { type: "PROVIDER_INTERNAL_BALANCE" },
          destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: `ExternalAccount:${uuid()}`, rail: "WIRE" },
          failureReason: "PROVIDER_TRANSFER_FAILED"
        }),
    createdAt: at(offsetMillis),
    updatedAt: at(offsetMillis)
  })

/**
 * Stablecoin issuance storage: links, stablecoins and operations round-trip every field, are scoped to their
 * platform, inserted once, and listed newest first by every filter in keyset pages that neither repeat nor miss a
 * row across equal creation times.
 */
export const register = (it: Methods) => {
  it.effect("finds links, stablecoins and operations as inserted, only within their platform; ids insert once", () =>
    Effect.gen(function* () {
      const repo = yield* StablecoinRepo.StablecoinRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const active = link(mine.id)
      const revoked = link(mine.id, { status: "REVOKED" })
      for (const stored of [active, revoked]) yield* repo.insertProviderAccount(stored)
      for (const stored of [active, revoked]) {
        expect(yield* repo.findProviderAccount(mine.id, stored.account.id)).toEqual(Option.some(stored))
        expect(yield* repo.findProviderAccount(other.id, stored.account.id)).toEqual(Option.none())
      }
      const again = yield* Effect.either(repo.insertProviderAccount({ ...active, credentialRef: "other" }))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")

      const stablecoin = coin(active.account.id)
      yield* repo.insertStablecoin(mine.id, stablecoin)
      expect(yield* repo.findStablecoin(mine.id, stablecoin.id)).toEqual(Option.some(stablecoin))
      expect(yield* repo.findStablecoin(other.id, stablecoin.id)).toEqual(Option.none())
      expect(Either.isLeft(yield* Effect.either(repo.insertStablecoin(mine.id, stablecoin)))).toBe(true)

      const full = operation(stablecoin, 5, true)
      const bare = operation(stablecoin, 6, false)
      for (const made of [full, bare]) yield* repo.insertOperation({ platformId: mine.id, operation: made })
      for (const made of [full, bare]) {
        expect(yield* repo.findOperation(mine.id, made.id)).toEqual(Option.some(made))
        expect(yield* repo.findOperation(other.id, made.id)).toEqual(Option.none())
      }
      const twice = yield* Effect.either(repo.insertOperation({ platformId: mine.id, operation: full }))
      expect(Either.isLeft(twice) && twice.left._tag).toBe("StoreFailure")
    })
  )

  it.effect("registers a token once per platform: of 20 racing inserts of one token exactly one wins", () =>
    Effect.gen(function* () {
      const repo = yield* StablecoinRepo.StablecoinRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const first = link(mine.id)
      const second = link(mine.id)
      const theirs = link(other.id)
      for (const stored of [first, second, theirs]) yield* repo.insertProviderAccount(stored)
      const token = coin(first.account.id)
      // Same network and token, fresh ids, through either link: one stablecoin.
      const racers = Array.from(
        { length: 20 },
        (_, index) =>
          new Stablecoin.Stablecoin({
            ...token,
            id: Stablecoin.StablecoinId.make(`Stablecoin:${uuid()}`),
            stablecoinProviderAccountId: (index % 2 === 0 ? first : second).account.id
          })
      )
      const results = yield* Effect.all(
        racers.map((racer) => Effect.either(repo.insertStablecoin(mine.id, racer))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      for (const result of results) {
        if (Either.isLeft(result)) {
          expect(result.left).toMatchObject({
            _tag: "StablecoinAlreadyRegistered",
            code: "CONFLICT",
            details: {
              rule: "stablecoin_already_registered",
              network: token.network,
              networkTokenIdentifier: token.networkTokenIdentifier
            }
          })
        }
      }
      const listed = yield* repo.listStablecoins(mine.id, {}, { limit: 100, after: Option.none() })
      expect(listed.data.filter((row) => row.networkTokenIdentifier === token.networkTokenIdentifier)).toHaveLength(1)
      // Another platform registers the same token; another token of this platform is its own.
      yield* repo.insertStablecoin(
        other.id,
        new Stablecoin.Stablecoin({
          ...token,
          id: Stablecoin.StablecoinId.make(`Stablecoin:${uuid()}`),
          stablecoinProviderAccountId: theirs.account.id
        })
      )
      yield* repo.insertStablecoin(mine.id, coin(first.account.id))
    })
  )

  it.effect("moves an operation on only from the status it read; one of 20 racers wins", () =>
    Effect.gen(function* () {
      const repo = yield* StablecoinRepo.StablecoinRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stablecoin = coin(link(mine.id).account.id)
      const pending = new StablecoinOperation.StablecoinOperation({
        ...operation(stablecoin, 9, true),
        status: "PENDING",
        providerStatus: "pending"
      })
      yield* repo.insertOperation({ platformId: mine.id, operation: pending })
      const completed = new StablecoinOperation.StablecoinOperation({
        ...pending,
        status: "COMPLETED",
        providerStatus: "complete",
        updatedAt: at(10)
      })
      expect(yield* repo.updateOperation({ platformId: other.id, operation: completed }, "PENDING")).toBe(false)
      expect(yield* repo.updateOperation({ platformId: mine.id, operation: completed }, "CREATED")).toBe(false)
      const wins = yield* Effect.all(
        Array.from({ length: 20 }, () =>
          repo.updateOperation({ platformId: mine.id, operation: completed }, "PENDING")
        ),
        { concurrency: "unbounded" }
      )
      expect(wins.filter((won) => won)).toHaveLength(1)
      expect(yield* repo.findOperation(mine.id, pending.id)).toEqual(Option.some(completed))
      expect((yield* repo.listOperations(mine.id, stablecoin.id, { limit: 10, after: Option.none() })).data).toEqual([
        completed
      ])
    })
  )

  it.effect("lists each kind newest first by every filter, in keyset pages across equal creation times", () =>
    Effect.gen(function* () {
      const repo = yield* StablecoinRepo.StablecoinRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const links = [0, 0, 0, 1, 2].map((offsetMillis, index) =>
        link(mine.id, { offsetMillis, status: index % 2 === 0 ? "ACTIVE" : "INVALID" })
      )
      for (const stored of links) yield* repo.insertProviderAccount(stored)
      yield* repo.insertProviderAccount(link(other.id))
      const accounts = links.map((stored) => stored.account)
      for (const limit of [1, 2, 100]) {
        expect(yield* pagedIds((page) => repo.listProviderAccounts(mine.id, {}, page), limit)).toEqual(
          newestFirst(accounts)
        )
        expect(
          yield* pagedIds(
            (page) => repo.listProviderAccounts(mine.id, { status: "ACTIVE", provider: "BRALE" }, page),
            limit
          )
        ).toEqual(newestFirst(accounts.filter((account) => account.status === "ACTIVE")))
      }

      const first = links[0]
      if (first === undefined) return yield* Effect.die("no link")
      const coins = [0, 0, 3, 3, 4].map((offsetMillis, index) =>
        coin(first.account.id, { offsetMillis, issuanceStatus: index < 2 ? "PROVISIONING" : "PROVISIONED" })
      )
      for (const made of coins) yield* repo.insertStablecoin(mine.id, made)
      yield* repo.insertStablecoin(other.id, coin(first.account.id))
      for (const limit of [1, 3, 100]) {
        expect(yield* pagedIds((page) => repo.listStablecoins(mine.id, {}, page), limit)).toEqual(newestFirst(coins))
        expect(
          yield* pagedIds(
            (page) =>
              repo.listStablecoins(
                mine.id,
                { issuanceStatus: "PROVISIONING", gridOperationsStatus: "NOT_ENABLED", provider: "BRALE" },
                page
              ),
            limit
          )
        ).toEqual(newestFirst(coins.slice(0, 2)))
        expect(
          yield* pagedIds((page) => repo.listStablecoins(mine.id, { gridOperationsStatus: "ENABLED" }, page), limit)
        ).toEqual([])
      }

      const [one, two] = coins
      if (one === undefined || two === undefined) return yield* Effect.die("no coin")
      const operations = [7, 7, 7, 8].map((offsetMillis, index) => operation(one, offsetMillis, index % 2 === 0))
      for (const made of operations) yield* repo.insertOperation({ platformId: mine.id, operation: made })
      yield* repo.insertOperation({ platformId: mine.id, operation: operation(two, 7, true) })
      for (const limit of [1, 2, 100]) {
        expect(yield* pagedIds((page) => repo.listOperations(mine.id, one.id, page), limit)).toEqual(
          newestFirst(operations)
        )
        expect(yield* pagedIds((page) => repo.listOperations(other.id, one.id, page), limit)).toEqual([])
      }
    })
  )
}
