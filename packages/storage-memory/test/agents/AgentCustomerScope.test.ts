import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Option, Schema, TestClock } from "effect"
import {
  Agent,
  AgentPolicy,
  AgentCustomerScope,
  type AgentCaller,
  CardTransactionRepo,
  Customers,
  Domain,
  ExternalAccountRequest,
  ExternalAccounts,
  Ids,
  InternalAccounts,
  type Platform,
  Platforms,
  SandboxFunding
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { CardFixtures } from "@payrail/storage-testkit"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layerDeterministic)
)

const page = { limit: 20, after: Option.none() }

const decodeAccount = Schema.decodeUnknownSync(ExternalAccountRequest.CreateExternalAccountRequest)
const accountRequest = (accountNumber: string, customerId?: string) =>
  decodeAccount({
    ...(customerId === undefined ? {} : { customerId }),
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber,
      routingNumber: "021000021",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Kim Lee" }
    }
  })

const everyPermission: ReadonlyArray<AgentPolicy.Permission> = AgentPolicy.Permission.literals

/** An agent record of `customerId` holding `permissions` (the scope reads nothing else of it). */
const callerOf = (
  platform: Platform.Platform,
  customerId: string,
  permissions: ReadonlyArray<AgentPolicy.Permission> = everyPermission
): AgentCaller.AgentCaller => {
  const now = DateTime.unsafeMake(Date.UTC(2026, 4, 1, 12))
  return {
    platform,
    agent: {
      id: Agent.AgentId.make("Agent:00000000-0000-4000-8000-000000000001"),
      platformId: platform.id,
      name: "Bookkeeper",
      customerId: customerId as Agent.AgentRecord["customerId"],
      isPaused: false,
      isConnected: true,
      policy: {
        permissions,
        defaultExecutionMode: "AUTO",
        spendingLimits: { currency: "USD", perTransactionLimit: 100_000 }
      },
      createdAt: now,
      updatedAt: now,
      tokenHash: undefined,
      version: 1
    }
  }
}

/** A platform with two individual customers. */
const setUp = Effect.gen(function* () {
  yield* TestClock.setTime(Date.UTC(2026, 4, 1, 12))
  const platform = yield* (yield* Platforms.Platforms).create({ name: "Test", environment: "SANDBOX" })
  const customers = yield* Customers.Customers
  const mine = yield* customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Kim Lee" })
  const theirs = yield* customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Ana Diaz" })
  return { platform, mine, theirs }
})

describe("AgentCustomerScope", () => {
  it.effect("creates, lists, reads and deletes the customer's external accounts, customerId inferred", () =>
    Effect.gen(function* () {
      const { mine, platform, theirs } = yield* setUp
      const scope = yield* AgentCustomerScope.AgentCustomerScope
      const caller = callerOf(platform, mine.id)
      const inferred = yield* scope.createExternalAccount(caller, accountRequest("111111111"))
      const explicit = yield* scope.createExternalAccount(caller, accountRequest("222222222", mine.id))
      expect([inferred.customerId, explicit.customerId]).toEqual([mine.id, mine.id])
      yield* (yield* ExternalAccounts.ExternalAccounts).create(
        platform,
        Option.some(theirs.id),
        accountRequest("333333333")
      )
      const listed = yield* scope.listExternalAccounts(caller, {}, page)
      expect(listed.data.map(({ id }) => id).sort()).toEqual([inferred.id, explicit.id].sort())
      expect((yield* scope.listExternalAccounts(caller, { currency: "EUR" }, page)).data).toEqual([])
      expect(yield* scope.getExternalAccount(caller, inferred.id)).toEqual(inferred)
      yield* scope.deleteExternalAccount(caller, inferred.id)
      expect(yield* Effect.flip(scope.getExternalAccount(caller, inferred.id))).toMatchObject({ code: "NOT_FOUND" })
    }).pipe(Effect.provide(services))
  )

  it.effect("answers another customer's or the platform's external account as not found", () =>
    Effect.gen(function* () {
      const { mine, platform, theirs } = yield* setUp
      const scope = yield* AgentCustomerScope.AgentCustomerScope
      const accounts = yield* ExternalAccounts.ExternalAccounts
      const caller = callerOf(platform, mine.id)
      const other = yield* accounts.create(platform, Option.some(theirs.id), accountRequest("333333333"))
      const platforms = yield* accounts.create(platform, Option.none(), accountRequest("444444444"))
      for (const id of [other.id, platforms.id]) {
        expect(yield* Effect.flip(scope.getExternalAccount(caller, id))).toMatchObject({
          code: "NOT_FOUND",
          details: { accountId: id }
        })
        expect(yield* Effect.flip(scope.deleteExternalAccount(caller, id))).toMatchObject({ code: "NOT_FOUND" })
      }
      // Still there: the refused delete removed nothing.
      expect(yield* accounts.get(platform, other.id)).toEqual(other)
      expect(
        yield* Effect.flip(scope.createExternalAccount(caller, accountRequest("555555555", theirs.id)))
      ).toMatchObject({ code: "USER_NOT_FOUND", details: { customerId: theirs.id } })
    }).pipe(Effect.provide(services))
  )

  it.effect("lists only the customer's internal accounts, filtered by currency and type, with no permission", () =>
    Effect.gen(function* () {
      const { mine, platform } = yield* setUp
      const scope = yield* AgentCustomerScope.AgentCustomerScope
      const caller = callerOf(platform, mine.id, [])
      const own = yield* (yield* InternalAccounts.InternalAccounts).list(
        platform,
        { owner: "customers", customerId: mine.id },
        page
      )
      const listed = yield* scope.listInternalAccounts(caller, {}, page)
      expect(listed.data.map(({ id }) => id)).toEqual(own.data.map(({ id }) => id))
      expect(listed.data.every((account) => account.customerId === mine.id)).toBe(true)
      const usd = yield* scope.listInternalAccounts(caller, { currency: "USD", type: "INTERNAL_FIAT" }, page)
      expect(usd.data.map((account) => [account.balance.currency.code, account.type])).toEqual([
        ["USD", "INTERNAL_FIAT"]
      ])
    }).pipe(Effect.provide(services))
  )

  it.effect(
    "lists and reads the customer's transactions, card transactions included; another customer's is not found",
    () =>
      Effect.gen(function* () {
        const { mine, platform, theirs } = yield* setUp
        const scope = yield* AgentCustomerScope.AgentCustomerScope
        const internal = yield* InternalAccounts.InternalAccounts
        const funding = yield* SandboxFunding.SandboxFunding
        const usdOf = (customerId: typeof mine.id) =>
          Effect.map(
            internal.list(platform, { owner: "customers", customerId, currency: "USD" }, page),
            ({ data }) => data[0]!.id
          )
        yield* funding.fund(platform, yield* usdOf(mine.id), { amountMinor: 1_000n, idempotencyKey: Option.none() })
        yield* funding.fund(platform, yield* usdOf(theirs.id), { amountMinor: 2_000n, idempotencyKey: Option.none() })
        // Card transactions of either customer's card, as the card network records them (dated before the funding).
        const cards = yield* CardTransactionRepo.CardTransactionRepo
        const cardRow = (customerId: typeof mine.id) =>
          CardFixtures.cardTransaction(CardFixtures.card(platform.id, { overrides: { customerId } }))
        const myCard = cardRow(mine.id)
        const theirCard = cardRow(theirs.id)
        yield* cards.insert(myCard)
        yield* cards.insert(theirCard)
        const caller = callerOf(platform, mine.id)
        const listed = yield* scope.listTransactions(caller, { sortOrder: "desc" }, page)
        expect(
          listed.data.map((transaction) => [
            transaction.customerId,
            transaction.type === "CARD" ? transaction.id : transaction.receivedAmount?.amount
          ])
        ).toEqual([
          [mine.id, 1_000],
          [mine.id, myCard.transaction.id]
        ])
        for (const own of listed.data) expect(yield* scope.getTransaction(caller, own.id)).toEqual(own)
        expect(yield* Effect.flip(scope.getTransaction(caller, theirCard.transaction.id))).toMatchObject({
          code: "TRANSACTION_NOT_FOUND"
        })
        const onlyCards = yield* scope.listTransactions(caller, { sortOrder: "asc", type: "CARD" }, page)
        expect(onlyCards.data.map((transaction) => transaction.id)).toEqual([myCard.transaction.id])
        const other = (yield* scope.listTransactions(callerOf(platform, theirs.id), { sortOrder: "desc" }, page))
          .data[0]!
        expect(yield* Effect.flip(scope.getTransaction(caller, other.id))).toMatchObject({
          code: "TRANSACTION_NOT_FOUND"
        })
      }).pipe(Effect.provide(services))
  )

  it.effect("refuses each operation without its permission, 403 requires_permission, before looking at ids", () =>
    Effect.gen(function* () {
      const { mine, platform } = yield* setUp
      const scope = yield* AgentCustomerScope.AgentCustomerScope
      const withoutExternal = callerOf(
        platform,
        mine.id,
        everyPermission.filter((permission) => permission !== "MANAGE_EXTERNAL_ACCOUNTS")
      )
      const withoutView = callerOf(
        platform,
        mine.id,
        everyPermission.filter((permission) => permission !== "VIEW_TRANSACTIONS")
      )
      const unknownAccount = "ExternalAccount:00000000-0000-4000-8000-000000000009" as never
      const unknownTransaction = "Transaction:00000000-0000-4000-8000-000000000009" as never
      const refusals = yield* Effect.all([
        Effect.flip(scope.listExternalAccounts(withoutExternal, {}, page)),
        Effect.flip(scope.createExternalAccount(withoutExternal, accountRequest("111111111"))),
        Effect.flip(scope.getExternalAccount(withoutExternal, unknownAccount)),
        Effect.flip(scope.deleteExternalAccount(withoutExternal, unknownAccount)),
        Effect.flip(scope.listTransactions(withoutView, { sortOrder: "desc" }, page)),
        Effect.flip(scope.getTransaction(withoutView, unknownTransaction))
      ])
      expect(refusals.map((refusal) => ("details" in refusal ? [refusal.code, refusal.details] : refusal))).toEqual([
        ...Array.from({ length: 4 }, () => [
          "FORBIDDEN",
          { rule: "requires_permission", requiredPermission: "MANAGE_EXTERNAL_ACCOUNTS" }
        ]),
        ...Array.from({ length: 2 }, () => [
          "FORBIDDEN",
          { rule: "requires_permission", requiredPermission: "VIEW_TRANSACTIONS" }
        ])
      ])
    }).pipe(Effect.provide(services))
  )
})
