import type * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import {
  AccountProvisioning,
  BulkImports,
  CustomerRequest,
  Customers,
  Ids,
  InternalAccounts,
  KycProvider,
  Ledger,
  Outbox,
  PlatformRepo,
  SandboxFunding,
  type Storage,
  SystemAccounts
} from "@payrail/core"
import { Fixtures } from "@payrail/storage-testkit"
import { Effect, Layer, Option, Schema, Stream } from "effect"
import * as Statements from "./fixtures/Statements.js"

// A provider that approves every individual, so creating one records two events (CREATED and KYC_APPROVED).
const approving = Layer.succeed(KycProvider.KycProvider, {
  initialVerification: ({ request }) =>
    Effect.succeed(
      request.customerType === "INDIVIDUAL"
        ? { customerType: "INDIVIDUAL" as const, kycStatus: "APPROVED" as const }
        : { customerType: "BUSINESS" as const, kybStatus: "APPROVED" as const }
    ),
  decideSubmission: () =>
    Effect.succeed({ status: "APPROVED" as const, verificationStatus: "APPROVED" as const, errors: [], owners: [] })
})

const request = Schema.decodeUnknownSync(CustomerRequest.CreateCustomerRequest)({
  customerType: "INDIVIDUAL",
  fullName: "Ada Lovelace",
  email: "ada@example.com"
})

// The tables a statement inserts into, in the order its text names them.
const tables = (text: string) => Array.from(text.matchAll(/INSERT INTO (\w+)/g), (match) => match[1])

/**
 * How many statements the use cases on the request path send inside their unit of work (`BEGIN` and `COMMIT`
 * are not counted: `@effect/sql` opens no statement span for them): the round trips that hold locks. Registered
 * once per backend.
 */
export const register = (backend: string, storage: Layer.Layer<Storage.Services | SqlClient.SqlClient, unknown>) => {
  const domain = Layer.mergeAll(
    Customers.layer,
    SandboxFunding.layer,
    BulkImports.layer.pipe(Layer.provide(Customers.layer))
  ).pipe(
    Layer.provide(AccountProvisioning.customerLayer),
    Layer.provideMerge(InternalAccounts.layer),
    Layer.provide(approving),
    Layer.provide(Ids.layer),
    Layer.provideMerge(storage)
  )
  layer(domain, { timeout: "120 seconds", excludeTestServices: true })(
    `storage-postgres use-case statements on ${backend}`,
    (it) => {
      it.effect("creates a customer in one statement per table and funds an account in one writing statement", () =>
        Effect.gen(function* () {
          const platform = Fixtures.platform()
          yield* Effect.flatMap(PlatformRepo.PlatformRepo, (repo) => repo.insert(platform))
          const ledger = yield* Ledger.Ledger
          const currencies = platform.config.supportedCurrencies.map((currency) => currency.currencyCode)
          yield* ledger.openAccounts(SystemAccounts.accountsFor(platform.id, currencies))

          const customers = yield* Customers.Customers
          // Its unit of work only writes: one statement, no BEGIN or COMMIT, inserting into every table in turn.
          const [customer, created] = yield* Statements.executed(customers.create(platform, request))
          expect(created).toHaveLength(1)
          expect(tables(created[0] ?? "")).toEqual([
            "customers",
            "customer_counts",
            "internal_accounts",
            "ledger_accounts",
            "auth_methods",
            "outbox"
          ])
          const events = (yield* Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000))).filter(
            (event) => event.platformId === platform.id
          )
          expect(events.map((event) => event.type)).toEqual(["CUSTOMER.CREATED", "CUSTOMER.KYC_APPROVED"])

          const accounts = yield* InternalAccounts.InternalAccounts
          const page = yield* accounts.list(
            platform,
            { owner: "customers", customerId: customer.id },
            { limit: 20, after: Option.none() }
          )
          expect(page.data.length).toBe(currencies.length)
          const [account] = page.data
          if (account === undefined) return expect.unreachable("the customer has no account")

          const funding = yield* SandboxFunding.SandboxFunding
          const input = { amountMinor: 2_500n, idempotencyKey: Option.some(globalThis.crypto.randomUUID()) }
          const [view, funded] = yield* Statements.executed(funding.fund(platform, account.id, input))
          // The account read and its owner's read (for the transaction's `platformCustomerId`), both before any lock,
          // then one statement that posts (answering the balance), inserts the transaction and records its event.
          expect(funded).toHaveLength(3)
          expect(funded[2]).toMatch(/payrail_ledger_post[\s\S]*INSERT INTO outbox[\s\S]*INSERT INTO transactions/)
          expect(view.balance.amount).toBe(2_500)
          const incoming = (yield* Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000))).filter(
            (event) => event.platformId === platform.id && event.type === "INCOMING_PAYMENT"
          )
          expect(incoming).toHaveLength(1)
          expect(incoming[0]?.data).toMatchObject({
            id: expect.stringMatching(/^Transaction:/),
            type: "INCOMING",
            status: "COMPLETED",
            direction: "CREDIT",
            source: { sourceType: "REALTIME_FUNDING", currency: account.balance.currency.code },
            destination: { destinationType: "ACCOUNT", accountId: account.id },
            customerId: customer.id,
            platformCustomerId: customer.platformCustomerId,
            receivedAmount: { amount: 2_500 }
          })
          const [replayed, again] = yield* Statements.executed(funding.fund(platform, account.id, input))
          expect(again).toHaveLength(3)
          expect(replayed).toEqual(view)
        })
      )

      it.effect("creates many customers in the statements of one, whatever their number", () =>
        Effect.gen(function* () {
          const platform = Fixtures.platform()
          yield* Effect.flatMap(PlatformRepo.PlatformRepo, (repo) => repo.insert(platform))
          const customers = yield* Customers.Customers
          for (const count of [3, 150]) {
            const drafts = yield* Effect.forEach(Array.from({ length: count }), () =>
              customers.prepare(platform, request)
            )
            const [, created] = yield* Statements.executed(customers.createMany(platform, drafts))
            expect(created).toHaveLength(1)
            expect(tables(created[0] ?? "")).toEqual([
              "customers",
              "customer_counts",
              "internal_accounts",
              "ledger_accounts",
              "auth_methods",
              "outbox"
            ])
            const events = (yield* Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000))).filter((event) =>
              drafts.some((draft) => draft.customer.id === event.data["id"])
            )
            expect(events).toHaveLength(count * 2)
          }
          const accounts = yield* InternalAccounts.InternalAccounts
          const page = yield* accounts.list(platform, { owner: "customers" }, { limit: 1, after: Option.none() })
          expect(page.totalCount).toBe(153 * platform.config.supportedCurrencies.length)
        })
      )

      it.effect("imports a bulk batch in a constant number of statements, whatever its number of rows", () =>
        Effect.gen(function* () {
          const platform = Fixtures.platform()
          yield* Effect.flatMap(PlatformRepo.PlatformRepo, (repo) => repo.insert(platform))
          const imports = yield* BulkImports.BulkImports
          const run = "r" + globalThis.crypto.randomUUID().slice(0, 8)
          const line = (id: string, uma = id, birthDate = "1990-01-15") =>
            `$${uma}@bulk.example,${id},INDIVIDUAL,Ada Lovelace,${birthDate},${id}@example.com,1 Main St,Austin,TX,78701,US`
          // Every fifth row a duplicate of the previous row's platformCustomerId or UMA address, or a future birth date.
          const file = (rows: number) =>
            [
              "umaAddress,platformCustomerId,customerType,fullName,birthDate,email,addressLine1,city,state,postalCode,country",
              ...Array.from({ length: rows }, (_, index) => {
                const id = `${run}-${rows}-${index}`
                const previous = `${run}-${rows}-${index - 1}`
                return index % 15 === 4
                  ? line(previous, id)
                  : index % 15 === 9
                    ? line(id, previous)
                    : index % 15 === 14
                      ? line(id, id, "2999-01-01")
                      : line(id)
              })
            ].join("\n")
          const statementsOf = (rows: number) =>
            Effect.gen(function* () {
              const accepted = yield* imports.upload(platform, Stream.make(new TextEncoder().encode(file(rows))))
              const [, statements] = yield* Statements.executed(imports.runBatch(platform.id, accepted.jobId))
              const view = yield* imports.get(platform, accepted.jobId)
              expect(view.progress).toEqual({
                total: rows,
                processed: rows,
                successful: rows - 3 * Math.floor(rows / 15),
                failed: 3 * Math.floor(rows / 15)
              })
              expect(view.errors.map((error) => error.code)).toEqual(
                Array.from({ length: Math.floor(rows / 15) }).flatMap(() => [
                  "CONFLICT",
                  "UMA_ADDRESS_EXISTS",
                  "INVALID_INPUT"
                ])
              )
              return statements
            })
          const few = yield* statementsOf(15)
          const many = yield* statementsOf(195)
          expect(many.length).toBe(few.length)
          expect(few.length).toBeLessThanOrEqual(20)
        })
      )
    }
  )
}
