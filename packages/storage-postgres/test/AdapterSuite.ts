import { expect, layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import {
  ApiTokenRepo,
  AuthMethodRepo,
  Authentication,
  Customer,
  CustomerRepo,
  DomainEvent,
  Errors,
  Outbox,
  type Platform,
  PlatformRepo,
  UmaAddress,
  UnitOfWork,
  type Storage
} from "@payrail/core"
import { Fixtures, WalletFixtures } from "@payrail/storage-testkit"
import { type DateTime, Effect, Either, type Layer, Option, Redacted } from "effect"
import { Migrations } from "../src/index.js"
import * as Statements from "./fixtures/Statements.js"

const event = (platformId: Platform.PlatformId, type: string, timestamp: DateTime.Utc) =>
  new DomainEvent.DomainEvent({
    id: DomainEvent.EventId.make(`Webhook:${globalThis.crypto.randomUUID()}`),
    platformId,
    type,
    timestamp,
    data: { type, nested: { list: [1, 2, 3], text: 'é ✓ "quoted"' } }
  })

const sqlStateOf = (failure: Errors.StoreFailure): unknown => {
  const error = failure.cause
  const driverError = typeof error === "object" && error !== null && "cause" in error ? error.cause : undefined
  return typeof driverError === "object" && driverError !== null && "code" in driverError ? driverError.code : undefined
}

/**
 * What this adapter guarantees beyond the shared conformance suites: its migrations, its mapping of SQLSTATEs,
 * savepoints for nested units of work and the encoding of records. Registered once per backend.
 */
export const register = (backend: string, storage: Layer.Layer<Storage.Services | SqlClient.SqlClient, unknown>) =>
  layer(storage, { timeout: "120 seconds", excludeTestServices: true })(`storage-postgres on ${backend}`, (it) => {
    // Estimated at PostgreSQL's default of 1000 rows, the posting-and-event statement of `Ledger.postRecording` was
    // costed high enough to be JIT-compiled on every call (16-260 ms per funding).
    it.effect("declares that payrail_ledger_post answers one row, so statements joining it stay cheap to plan", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ prorows: number }>`SELECT prorows::int AS prorows FROM pg_proc
          WHERE proname = 'payrail_ledger_post'`
        expect(rows).toEqual([{ prorows: 1 }])
      })
    )

    it.effect("has applied every migration once under its shipped id and name, and a second run applies none", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect(yield* Migrations.run).toEqual([])
        const applied = yield* sql`SELECT migration_id, name FROM ${sql(Migrations.table)} ORDER BY migration_id`
        expect(applied).toEqual(
          [
            "platforms",
            "api_tokens",
            "customers",
            "outbox",
            "ledger",
            "internal_accounts",
            "auth_methods",
            "external_accounts",
            "ledger_post_balances",
            "customer_counts",
            "credential_changes",
            "rate_limits",
            "ledger_balance_bounds",
            "jobs",
            "webhooks",
            "webhook_delivery_jobs",
            "idempotency_keys",
            "sandbox_clocks",
            "payments",
            "jobs_wake_when_due",
            "customer_uma_addresses",
            "uma_lookups",
            "wallet_auth",
            "verification_records",
            "document_files",
            "verifications",
            "customer_lifecycle",
            "kyc_links",
            "uma_lookup_expiry",
            "agents",
            "cards",
            "sca",
            "invitations",
            "stablecoins",
            "incoming_decisions",
            "bulk_imports",
            "stablecoin_tokens",
            "event_feed",
            "active_sessions",
            "statement_checks",
            "customer_uma_address_unique"
          ].map((name, index) => ({ migration_id: index + 1, name }))
        )
      })
    )

    it.effect("maps SQLSTATE 23505 on (platform, platformCustomerId) to PlatformCustomerIdTaken with its details", () =>
      Effect.gen(function* () {
        const repo = yield* CustomerRepo.CustomerRepo
        const owner = Fixtures.platform().id
        yield* repo.insert(owner, Fixtures.individual({ platformCustomerId: "pc-1" }), Fixtures.noIdentifier)
        const duplicate = yield* Effect.flip(
          repo.insert(owner, Fixtures.individual({ platformCustomerId: "pc-1" }), Fixtures.noIdentifier)
        )
        expect(duplicate).toEqual(Errors.PlatformCustomerIdTaken.of("pc-1"))
      })
    )

    it.effect("maps SQLSTATE 23505 on (platform, UMA address) to UmaAddressTaken naming the address", () =>
      Effect.gen(function* () {
        const repo = yield* CustomerRepo.CustomerRepo
        const owner = Fixtures.platform().id
        const at = (address: string) =>
          new Customer.IndividualCustomer({ ...Fixtures.individual(), umaAddress: UmaAddress.UmaAddress.make(address) })
        yield* repo.insert(owner, at("$held.one@uma.example"), Fixtures.noIdentifier)
        // Of many customers, the error names the address the index refused, not the first customer's.
        const duplicate = yield* Effect.flip(
          repo.insertMany(
            owner,
            [at("$fresh@uma.example"), at("$held.one@uma.example")].map((customer) => ({
              customer,
              identifier: Fixtures.noIdentifier
            }))
          )
        )
        expect(duplicate).toEqual(Errors.UmaAddressTaken.of("$held.one@uma.example"))
      })
    )

    it.effect("reports other unique violations as StoreFailure that keeps the SQLSTATE in its cause", () =>
      Effect.gen(function* () {
        const tokens = yield* ApiTokenRepo.ApiTokenRepo
        const customers = yield* CustomerRepo.CustomerRepo
        const owner = Fixtures.platform().id
        const token = Fixtures.apiToken(owner)
        yield* tokens.insert(token)
        const sameClientId = yield* Effect.flip(
          tokens.insert({ ...Fixtures.apiToken(owner), clientId: token.clientId })
        )
        expect(sameClientId._tag).toBe("StoreFailure")
        expect(sqlStateOf(sameClientId)).toBe("23505")

        const customer = Fixtures.individual()
        yield* customers.insert(owner, customer, Fixtures.noIdentifier)
        const sameId = yield* Effect.flip(customers.insert(owner, customer, Fixtures.noIdentifier))
        expect(sameId._tag).toBe("StoreFailure")
      })
    )

    it.effect("enforces the credential rules with unique indexes: a credential breaking one fails with 23505", () =>
      Effect.gen(function* () {
        const methods = yield* AuthMethodRepo.AuthMethodRepo
        const owner = Fixtures.platform().id
        const wallet = WalletFixtures.walletId()
        const passkey = WalletFixtures.passkey(wallet)
        const identity = { issuer: "https://issuer.example", audience: "app", subject: "ada" }
        yield* methods.insertAll(owner, [WalletFixtures.otp(wallet), passkey, WalletFixtures.oauth(wallet, identity)])
        const breaking = [
          WalletFixtures.otp(wallet),
          WalletFixtures.passkey(WalletFixtures.walletId(), { credentialId: passkey.credentialId ?? "" }),
          WalletFixtures.oauth(wallet, identity)
        ]
        for (const method of breaking) {
          const failure = yield* Effect.flip(methods.insert(owner, method))
          expect([failure._tag, sqlStateOf(failure)]).toEqual(["StoreFailure", "23505"])
        }
      })
    )

    it.effect("stores records encoded and decodes them intact, milliseconds and Unicode included", () =>
      Effect.gen(function* () {
        const platforms = yield* PlatformRepo.PlatformRepo
        const customers = yield* CustomerRepo.CustomerRepo
        const outbox = yield* Outbox.Outbox
        const platform = Fixtures.platform("Ünïcödé ✓")
        yield* platforms.insert(platform)
        expect(yield* platforms.findById(platform.id)).toEqual(Option.some(platform))

        const customer = new Customer.BusinessCustomer({ ...Fixtures.business(1), updatedAt: Fixtures.at(999) })
        yield* customers.insert(platform.id, customer, Option.some("12-3456789"))
        expect(yield* customers.findById(platform.id, customer.id)).toEqual(
          Option.some({ customer, identifier: Option.some("12-3456789"), version: 1 })
        )

        const appended = event(platform.id, "CUSTOMER.CREATED", Fixtures.at(42))
        yield* outbox.append(appended)
        const pending = yield* outbox.pending(100_000)
        expect(pending.find((candidate) => candidate.id === appended.id)).toEqual(appended)
      })
    )

    it.effect("fails as StoreFailure, never with a malformed record, when a stored row no longer decodes", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const platforms = yield* PlatformRepo.PlatformRepo
        const customers = yield* CustomerRepo.CustomerRepo
        const platform = yield* Fixtures.insertPlatform
        const customer = Fixtures.individual()
        yield* customers.insert(platform.id, customer, Fixtures.noIdentifier)
        yield* sql`UPDATE platforms SET record = record - 'name' WHERE id = ${platform.id}`
        yield* sql`UPDATE customers SET record = jsonb_set(record, '{createdAt}', '"yesterday"') WHERE id = ${customer.id}`
        const failures = yield* Effect.all([
          Effect.flip(platforms.findById(platform.id)),
          Effect.flip(customers.findById(platform.id, customer.id)),
          Effect.flip(customers.list(platform.id, {}, { limit: 10, after: Option.none() }))
        ])
        expect(failures.map((failure) => [failure._tag, failure.operation])).toEqual([
          ["StoreFailure", "platforms.findById"],
          ["StoreFailure", "customers.findById"],
          ["StoreFailure", "customers.list"]
        ])
      })
    )

    it.effect("runs a nested unit of work as a savepoint: its failure undoes only its own writes", () =>
      Effect.gen(function* () {
        const store = yield* UnitOfWork.UnitOfWork
        const platforms = yield* PlatformRepo.PlatformRepo
        const outer = Fixtures.platform()
        const inner = Fixtures.platform()
        yield* store.transaction(
          Effect.gen(function* () {
            yield* platforms.insert(outer)
            const nested = yield* Effect.either(
              store.transaction(Effect.zipRight(platforms.insert(inner), Effect.fail("inner failed" as const)))
            )
            expect(nested).toEqual(Either.left("inner failed"))
          })
        )
        expect(Option.isSome(yield* platforms.findById(outer.id))).toBe(true)
        expect(yield* platforms.findById(inner.id)).toEqual(Option.none())
      })
    )

    it.effect("returns pending outbox events in append order, at most `limit`", () =>
      Effect.gen(function* () {
        const outbox = yield* Outbox.Outbox
        const owner = Fixtures.platform().id
        // Later timestamps first: the order is the order of appends, not of timestamps.
        const events = [3, 2, 1].map((offset) => event(owner, `TYPE.${offset}`, Fixtures.at(offset)))
        yield* Effect.forEach(events, outbox.append, { discard: true })
        const mine = (yield* outbox.pending(100_000)).filter((pending) => pending.platformId === owner)
        expect(mine.map((pending) => pending.id)).toEqual(events.map((appended) => appended.id))
        expect(yield* outbox.pending(1)).toHaveLength(1)
      })
    )

    it.effect("reads a token and its platform in one statement, and a client id with NUL in none", () =>
      Effect.gen(function* () {
        const tokens = yield* ApiTokenRepo.ApiTokenRepo
        const platform = yield* Fixtures.insertPlatform
        const token = Fixtures.apiToken(platform.id)
        yield* tokens.insert(token)
        const [found, statements] = yield* Statements.executed(tokens.findWithPlatform(token.clientId))
        expect(found).toEqual(Option.some({ token, platform }))
        expect(statements).toHaveLength(1)
        expect(statements[0]).toMatch(/JOIN platforms/)
        expect(yield* Statements.executed(tokens.findWithPlatform(`${token.clientId}\u0000`))).toEqual([
          Option.none(),
          []
        ])
      })
    )

    it.effect("refuses credentials whose client id contains NUL as UNAUTHORIZED, not as a store failure", () =>
      Effect.gen(function* () {
        const authentication = yield* Authentication.Authentication
        const failure = yield* Effect.flip(authentication.authenticate("pk_\u0000", Redacted.make("sk_sandbox_x")))
        expect(failure).toMatchObject({ _tag: "Unauthenticated", code: "UNAUTHORIZED" })
      }).pipe(Effect.provide(Authentication.layer))
    )
  })
