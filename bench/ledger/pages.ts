import path from "node:path"
import { pathToFileURL } from "node:url"
import type * as EffectModule from "effect"
import type * as PgClientModule from "@effect/sql-pg/PgClient"
import {
  Customer,
  ExternalAccount,
  ExternalAccountInfo,
  ExternalAccountRepo,
  type Page,
  Platform
} from "../../packages/core/src/index.js"
import { StoragePostgres } from "../../packages/storage-postgres/src/index.js"
import { importFromStoragePostgres } from "./importFromStoragePostgres.js"

// Latency of `ExternalAccountRepo.list` pages on PostgreSQL (PgExternalAccountRepo) at 10,000 and at 1,000,000
// external accounts of one platform: the first page and a deep page (cursor in the middle), platform-wide and for
// one customer who has the same 1,000 accounts at both sizes. Keyset pages and counters (not count(*)) should keep
// the 1M figures within 2x of the 10k ones. The platform is measured alone at 10k, then grown to 1M; there its
// calls alternate with those of a second platform of 10k accounts in the same tables, so that load from other
// processes hits both alike and the ratio compares like with like. Environment: DATABASE_URL (default: the local
// server), PAGES_BENCH_RUNS (timed calls per figure, default 200).

const { Cause, DateTime, Effect, Exit, Fiber, Layer, Option, Redacted, Schema } =
  await importFromStoragePostgres<typeof EffectModule>("effect")
const { PgClient, layer: pgLayer } = await importFromStoragePostgres<typeof PgClientModule>(
  "@effect/sql-pg",
  "./PgClient"
)

const runs = Number(process.env["PAGES_BENCH_RUNS"] ?? "200")
const warmUpRuns = 20
const sizes = [10_000, 1_000_000] as const
const customerAccounts = 1_000
const loadChunk = 100_000

// A uuid-shaped text derived from `seed` (an SQL expression), so bulk-loaded ids are valid and reproducible.
const uuidOf = (seed: string) =>
  `(SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21, 12) FROM md5(${seed}) AS h)`

/** One valid encoded external account: every bulk-loaded record is this one with its own ids, times and number. */
const template = Effect.gen(function* () {
  const accountInfo = yield* Schema.decodeUnknown(ExternalAccountInfo.ExternalAccountInfo)({
    accountType: "USD_ACCOUNT",
    accountNumber: "000000000001",
    routingNumber: "021000021",
    bankAccountType: "CHECKING",
    bankName: "Chase Bank",
    beneficiary: {
      beneficiaryType: "INDIVIDUAL",
      fullName: "Ada Lovelace",
      address: { line1: "123 Main Street", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" }
    }
  })
  const at = new Date(Date.UTC(2026, 0, 1))
  const account = yield* Schema.decodeUnknown(ExternalAccount.ExternalAccount)({
    id: "ExternalAccount:00000000-0000-4000-8000-000000000000",
    customerId: "Customer:00000000-0000-4000-8000-000000000000",
    status: "ACTIVE",
    platformAccountId: "bench",
    ownershipType: "FIRST_PARTY",
    currency: "USD",
    defaultUmaDepositAccount: false,
    beneficiaryVerificationStatus: "MATCHED",
    accountInfo: yield* Schema.encode(ExternalAccountInfo.ExternalAccountInfo)(accountInfo),
    createdAt: at.toISOString(),
    updatedAt: at.toISOString()
  })
  return JSON.stringify(yield* Schema.encode(ExternalAccount.ExternalAccount)(account))
})

type Sql = EffectModule.Effect.Effect.Success<typeof PgClient>

/** A platform to measure and its customer with 1,000 accounts; `seed` keeps its generated ids apart from others'. */
interface Subject {
  readonly platformId: Platform.PlatformId
  readonly customerId: Customer.CustomerId
  readonly seed: string
}

// Rows `from..to` of the platform: row n is created n seconds after the start; every tenth of the first 10,000
// belongs to the measured customer, the others to customers of 8 accounts each. Counters are rebuilt from the rows.
const load = (sql: Sql, subject: Subject, record: string, from: number, to: number) =>
  Effect.gen(function* () {
    for (let start = from; start <= to; start += loadChunk) {
      const end = Math.min(to, start + loadChunk - 1)
      yield* sql`INSERT INTO external_accounts (id, platform_id, owner, owner_key, customer_id, account_type,
          identifier, currency, status, default_uma_deposit_account, count_slot, record, created_at)
        SELECT g.id, ${subject.platformId}, 'customers', g.customer_id, g.customer_id, 'USD_ACCOUNT', '021000021/' || g.number,
          'USD', 'ACTIVE', false, g.n % 16,
          ${record}::jsonb || jsonb_build_object('id', g.id, 'customerId', g.customer_id,
            'platformAccountId', 'bench-' || g.n, 'createdAt', g.at, 'updatedAt', g.at,
            'accountInfo', (${record}::jsonb -> 'accountInfo') || jsonb_build_object('accountNumber', g.number)),
          g.created_at
        FROM (
          SELECT n, 'ExternalAccount:' || ${sql.literal(uuidOf(`'${subject.seed}a' || n`))} AS id,
            CASE WHEN n <= 10000 AND n % 10 = 0 THEN ${subject.customerId}
              ELSE 'Customer:' || ${sql.literal(uuidOf(`'${subject.seed}c' || (n / 8)`))} END AS customer_id,
            lpad(n::text, 12, '0') AS number, t AS created_at,
            to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
          FROM generate_series(${start}::int, ${end}::int) AS n,
            LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00' + n * interval '1 second' AS t) AS x
        ) AS g`
    }
    const platformId = subject.platformId
    yield* sql`DELETE FROM external_account_counts WHERE platform_id = ${platformId}`
    yield* sql`INSERT INTO external_account_counts (platform_id, scope, currency, slot, n)
      SELECT platform_id, owner, currency, count_slot, count(*) FROM external_accounts
        WHERE platform_id = ${platformId} AND deleted_at IS NULL GROUP BY platform_id, owner, currency, count_slot
      UNION ALL
      SELECT platform_id, customer_id, currency, 0, count(*) FROM external_accounts
        WHERE platform_id = ${platformId} AND deleted_at IS NULL AND customer_id IS NOT NULL
        GROUP BY platform_id, customer_id, currency`
    yield* sql`VACUUM ANALYZE external_accounts, external_account_counts`
  })

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

type Repo = EffectModule.Context.Tag.Service<typeof ExternalAccountRepo.ExternalAccountRepo>
type Filter = ExternalAccountRepo.ExternalAccountFilter

// The cursor of the row in the middle of the list, as a client holding the previous page's nextCursor would send it.
const middleCursor = (sql: Sql, platformId: string, filter: Filter, total: number) =>
  Effect.gen(function* () {
    const conditions = [sql`platform_id = ${platformId}`, sql`deleted_at IS NULL`, sql`owner = ${filter.owner}`]
    if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
    const [row] = yield* sql<{ id: string; at: string }>`SELECT id,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
      FROM external_accounts WHERE ${sql.and(conditions)}
      ORDER BY created_at DESC, id COLLATE "C" DESC OFFSET ${Math.floor(total / 2)} LIMIT 1`
    if (row === undefined) return yield* Effect.dieMessage("no middle row")
    const cursor: Page.Cursor = { createdAt: DateTime.unsafeMake(row.at), id: row.id }
    return cursor
  })

interface Case {
  readonly filter: Filter
  readonly page: Page.PageRequest
  readonly total: number
}

const labels = [
  "platform-wide, first page",
  "platform-wide, deep page",
  "one customer, first page",
  "one customer, deep page"
]

// The four measured requests of a platform of `size` accounts, in the order of `labels`.
const casesOf = (sql: Sql, subject: Subject, size: number) =>
  Effect.gen(function* () {
    const everyone: Filter = { owner: "customers" }
    const customer: Filter = { owner: "customers", customerId: subject.customerId }
    const first = { limit: 20, after: Option.none() }
    const deep = (filter: Filter, total: number) =>
      Effect.map(middleCursor(sql, subject.platformId, filter, total), (cursor) => ({
        limit: 20,
        after: Option.some(cursor)
      }))
    const cases: ReadonlyArray<Case> = [
      { filter: everyone, page: first, total: size },
      { filter: everyone, page: yield* deep(everyone, size), total: size },
      { filter: customer, page: first, total: customerAccounts },
      { filter: customer, page: yield* deep(customer, customerAccounts), total: customerAccounts }
    ]
    return cases
  })

/** Milliseconds of one page request; a page with unexpected rows or total count is a defect. */
const timeOnce = (repo: Repo, subject: Subject, request: Case) =>
  Effect.gen(function* () {
    const started = performance.now()
    const result = yield* repo.list(subject.platformId, request.filter, request.page)
    const elapsed = performance.now() - started
    if (result.totalCount !== request.total || result.data.length !== request.page.limit) {
      return yield* Effect.dieMessage(`unexpected page: ${result.data.length} rows, totalCount ${result.totalCount}`)
    }
    return elapsed
  })

/** Median milliseconds per subject over `runs` rounds after a warm-up, the subjects taking turns in each round. */
const measure = (repo: Repo, requests: ReadonlyArray<readonly [Subject, Case]>) =>
  Effect.gen(function* () {
    const timings = requests.map((): Array<number> => [])
    for (let run = 0; run < warmUpRuns + runs; run++) {
      // Alternate who goes first, so that neither always runs right after the other.
      const order =
        run % 2 === 0 ? requests.map((_, index) => index) : requests.map((_, index) => requests.length - 1 - index)
      for (const index of order) {
        const [subject, request] = requests[index] ?? []
        if (subject === undefined || request === undefined) continue
        const elapsed = yield* timeOnce(repo, subject, request)
        if (run >= warmUpRuns) timings[index]?.push(elapsed)
      }
    }
    return timings.map(median)
  })

const subjectOf = (seed: string): Subject => ({
  platformId: Platform.PlatformId.make(`Platform:${globalThis.crypto.randomUUID()}`),
  customerId: Customer.CustomerId.make(`Customer:${globalThis.crypto.randomUUID()}`),
  seed
})

const cell = (value: number, width = 12) => value.toFixed(3).padStart(width)

const benchmark = (serverUrl: string, databaseName: string) =>
  Effect.gen(function* () {
    const repo = yield* ExternalAccountRepo.ExternalAccountRepo
    const sql = yield* PgClient
    const record = yield* template
    const [server] = yield* sql<{ version: string }>`SELECT current_setting('server_version') AS version`
    console.log(
      `PostgreSQL ${server?.version ?? "?"} at ${new URL(serverUrl).host}; ExternalAccountRepo.list, limit 20`
    )
    console.log(
      `median of ${runs} calls per figure after ${warmUpRuns} warm-up calls; the customer has ${customerAccounts} accounts`
    )
    const [small, large] = sizes
    const grown = subjectOf("g")
    const control = subjectOf("k")
    yield* load(sql, grown, record, 1, small)
    const alone: Array<number> = []
    for (const request of yield* casesOf(sql, grown, small)) alone.push(...(yield* measure(repo, [[grown, request]])))
    yield* load(sql, grown, record, small + 1, large)
    yield* load(sql, control, record, 1, small)
    const grownCases = yield* casesOf(sql, grown, large)
    const controlCases = yield* casesOf(sql, control, small)
    const beside: Array<number> = []
    const big: Array<number> = []
    for (const [index, request] of grownCases.entries()) {
      const controlRequest = controlCases[index]
      if (controlRequest === undefined) continue
      const [grownMs = 0, controlMs = 0] = yield* measure(repo, [
        [grown, request],
        [control, controlRequest]
      ])
      big.push(grownMs)
      beside.push(controlMs)
    }
    console.log(
      `\n${"page latency, median ms".padEnd(30)}${"10k alone".padStart(12)}${"10k beside".padStart(12)}${"1M".padStart(12)}${"1M/10k".padStart(10)}`
    )
    const ratios = labels.map((label, index) => {
      const ratio = (big[index] ?? 0) / (beside[index] ?? 1)
      console.log(
        `${label.padEnd(30)}${cell(alone[index] ?? 0)}${cell(beside[index] ?? 0)}${cell(big[index] ?? 0)}${`${ratio.toFixed(2)}x`.padStart(10)}`
      )
      return ratio
    })
    const worst = Math.max(...ratios)
    console.log(
      `\n"10k beside": a platform of 10k accounts next to the 1M one, its calls alternating with the 1M calls`
    )
    console.log(
      `worst 1M/10k ratio ${worst.toFixed(2)}x (target: within 2x): ${worst <= 2 ? "met" : "NOT met"}; dropping ${databaseName}`
    )
  })
/**
 * Creates a throw-away database on the PostgreSQL server at `databaseUrl`, migrates it with
 * `StoragePostgres.layerPostgres`, bulk-loads external accounts of one platform to 10,000 and then 1,000,000 rows,
 * prints the median latency of first and deep `ExternalAccountRepo.list` pages (platform-wide and for one customer)
 * at both sizes with their ratio, and drops the database however the run ends (Ctrl-C included). Rejects when a
 * step fails; a page with unexpected rows or total count is a failure.
 */
export async function measurePages(databaseUrl: string): Promise<void> {
  const name = `payrail_bench_pages_${globalThis.crypto.randomUUID().replaceAll("-", "")}`
  const url = new URL(databaseUrl)
  url.pathname = `/${name}`
  const storage = Layer.merge(
    StoragePostgres.layerPostgres(Redacted.make(url.toString())),
    pgLayer({ url: Redacted.make(url.toString()), maxConnections: 2, applicationName: "payrail-bench-pages" })
  )
  const program = Effect.gen(function* () {
    const admin = yield* PgClient
    yield* Effect.acquireRelease(admin`CREATE DATABASE ${admin(name)}`, () =>
      Effect.orDie(admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`)
    )
    yield* benchmark(databaseUrl, name).pipe(Effect.provide(storage))
  }).pipe(Effect.scoped, Effect.provide(pgLayer({ url: Redacted.make(databaseUrl), maxConnections: 1 })))
  const fiber = Effect.runFork(program)
  const interrupt = () => fiber.unsafeInterruptAsFork(fiber.id())
  process.once("SIGINT", interrupt)
  const exit = await Effect.runPromise(Fiber.await(fiber)).finally(() => process.off("SIGINT", interrupt))
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await measurePages(process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres").catch(
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exitCode = 1
    }
  )
}
