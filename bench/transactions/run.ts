import type * as EffectModule from "effect"
import type * as PgClientModule from "@effect/sql-pg/PgClient"
import { Customer, type Page, Platform, Transaction, TransactionRepo } from "../../packages/core/src/index.js"
import { StoragePostgres } from "../../packages/storage-postgres/src/index.js"
import * as Cluster from "../http/cluster.js"
import { runMain } from "../http/lifecycle.js"
import { importFromStoragePostgres } from "../ledger/importFromStoragePostgres.js"

// Latency of `GET /transactions` pages in storage: `TransactionRepo.list` on PostgreSQL (PgTransactionRepo, limit
// 20) at 10,000 and at 1,000,000 transactions of one platform, rows inserted with generate_series in the shape
// PgTransactionRepo stores (a decodable record and the list columns). Per filter (none, customerId,
// accountIdentifier, status) and sort order (desc, asc): the first page and a deep page (cursor in the middle of
// the filtered list). The measured customer has 1,000 transactions and its account sends 1,000 and receives 1,000
// at both sizes; 2% of the rows are FAILED. As bench/ledger/pages.ts does for external accounts, the platform is
// measured alone at 10k, then grown to 1M, where its calls alternate with those of a second platform of 10k rows
// in the same table (so load from other processes hits both alike). Target: every 1M figure within 2x of the 10k
// one beside it. Environment: BENCH_DATABASE_URL (a PostgreSQL server instead of a cluster of its own; a database
// is created and dropped there), BENCH_PG_BIN, PAGES_BENCH_RUNS (timed calls per figure, default 200).

const { Cause, DateTime, Effect, Exit, Fiber, Layer, Option, Redacted, Schema } =
  await importFromStoragePostgres<typeof EffectModule>("effect")
const { PgClient, layer: pgLayer } = await importFromStoragePostgres<typeof PgClientModule>(
  "@effect/sql-pg",
  "./PgClient"
)

const runs = Number(process.env["PAGES_BENCH_RUNS"] ?? "200")
const warmUpRuns = 20
const small = 10_000
const large = 1_000_000
const loadChunk = 100_000

// A uuid-shaped text derived from `seed` (an SQL expression), so bulk-loaded ids are valid and reproducible.
const uuidOf = (seed: string) =>
  `(SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21, 12) FROM md5(${seed}) AS h)`

/** One valid encoded transaction: every bulk-loaded record is this one with its own ids, parties, status and times. */
const template = Effect.gen(function* () {
  const at = "2026-01-01T00:00:00.000Z"
  const transaction = yield* Schema.decodeUnknown(Transaction.Transaction)({
    id: "Transaction:00000000-0000-4000-8000-000000000000",
    status: "COMPLETED",
    type: "OUTGOING",
    direction: "DEBIT",
    source: {
      sourceType: "ACCOUNT",
      accountId: "InternalAccount:00000000-0000-4000-8000-000000000001",
      currency: "USD"
    },
    destination: {
      destinationType: "ACCOUNT",
      accountId: "InternalAccount:00000000-0000-4000-8000-000000000002",
      currency: "USD"
    },
    customerId: "Customer:00000000-0000-4000-8000-000000000000",
    sentAmount: { amount: 10_000, currency: { code: "USD", name: "United States Dollar", decimals: 2, symbol: "$" } },
    receivedAmount: {
      amount: 10_000,
      currency: { code: "USD", name: "United States Dollar", decimals: 2, symbol: "$" }
    },
    fees: 0,
    platformFees: 0,
    exchangeRate: 1,
    quoteId: "Quote:00000000-0000-4000-8000-000000000000",
    description: "Bench payment",
    settledAt: at,
    createdAt: at,
    updatedAt: at
  })
  return JSON.stringify(yield* Schema.encode(Transaction.Transaction)(transaction))
})

type Sql = EffectModule.Effect.Effect.Success<typeof PgClient>
type Repo = EffectModule.Context.Tag.Service<typeof TransactionRepo.TransactionRepo>
type Filter = TransactionRepo.TransactionFilter

/** A platform to measure, its customer of 1,000 transactions and that customer's account; `seed` keeps ids apart. */
interface Subject {
  readonly platformId: Platform.PlatformId
  readonly customerId: string
  readonly accountId: string
  readonly seed: string
}

// Rows `from..to` of the platform: row n is created n seconds after the start. Of the first 10,000, every tenth
// belongs to the measured customer and is sent from its account, and every tenth (offset by 5) is received by that
// account; every other row belongs to a customer of 8 transactions. Every 50th row is FAILED, the rest COMPLETED.
const load = (sql: Sql, subject: Subject, record: string, from: number, to: number) =>
  Effect.gen(function* () {
    for (let start = from; start <= to; start += loadChunk) {
      const end = Math.min(to, start + loadChunk - 1)
      yield* sql`INSERT INTO transactions (id, platform_id, customer_id, platform_customer_id, sender_identifier,
          receiver_identifier, status, type, reference, posting_id, record, created_at)
        SELECT g.id, ${subject.platformId}, g.customer_id, NULL, g.sender, g.receiver, g.status, 'OUTGOING', NULL,
          'Posting:' || ${sql.literal(uuidOf(`'${subject.seed}p' || n`))},
          ${record}::jsonb || jsonb_build_object('id', g.id, 'status', g.status, 'customerId', g.customer_id,
            'source', jsonb_build_object('sourceType', 'ACCOUNT', 'accountId', g.sender, 'currency', 'USD'),
            'destination', jsonb_build_object('destinationType', 'ACCOUNT', 'accountId', g.receiver, 'currency', 'USD'),
            'settledAt', g.at, 'createdAt', g.at, 'updatedAt', g.at),
          g.created_at
        FROM (
          SELECT n, 'Transaction:' || ${sql.literal(uuidOf(`'${subject.seed}t' || n`))} AS id,
            CASE WHEN n <= 10000 AND n % 10 = 0 THEN ${subject.customerId}
              ELSE 'Customer:' || ${sql.literal(uuidOf(`'${subject.seed}c' || (n / 8)`))} END AS customer_id,
            CASE WHEN n <= 10000 AND n % 10 = 0 THEN ${subject.accountId}
              ELSE 'InternalAccount:' || ${sql.literal(uuidOf(`'${subject.seed}a' || (n / 8)`))} END AS sender,
            CASE WHEN n <= 10000 AND n % 10 = 5 THEN ${subject.accountId}
              ELSE 'InternalAccount:' || ${sql.literal(uuidOf(`'${subject.seed}r' || n`))} END AS receiver,
            CASE WHEN n % 50 = 7 THEN 'FAILED' ELSE 'COMPLETED' END AS status,
            t AS created_at, to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
          FROM generate_series(${start}::int, ${end}::int) AS n,
            LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00' + n * interval '1 second' AS t) AS x
        ) AS g`
    }
    yield* sql`VACUUM ANALYZE transactions`
  })

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

interface Case {
  readonly label: string
  readonly filter: Filter
  readonly page: Page.PageRequest
}

const filtersOf = (subject: Subject): ReadonlyArray<readonly [string, Omit<Filter, "sortOrder">]> => [
  ["platform-wide", {}],
  ["customerId", { customerId: subject.customerId }],
  ["accountIdentifier", { accountIdentifier: subject.accountId }],
  ["status=FAILED", { status: "FAILED" }]
]

// The cursor of the row in the middle of the filtered list, as a client holding the previous page's nextCursor
// would send it.
const middleCursor = (sql: Sql, subject: Subject, filter: Filter) =>
  Effect.gen(function* () {
    const conditions = [sql`platform_id = ${subject.platformId}`]
    if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
    if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}`)
    if (filter.accountIdentifier !== undefined) {
      conditions.push(
        sql`(sender_identifier = ${filter.accountIdentifier} OR receiver_identifier = ${filter.accountIdentifier})`
      )
    }
    const order =
      filter.sortOrder === "desc" ? sql`created_at DESC, id COLLATE "C" DESC` : sql`created_at, id COLLATE "C"`
    const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM transactions WHERE ${sql.and(conditions)}`
    const [row] = yield* sql<{ id: string; at: string }>`SELECT id,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
      FROM transactions WHERE ${sql.and(conditions)} ORDER BY ${order} OFFSET ${Math.floor((count?.n ?? 0) / 2)} LIMIT 1`
    if (row === undefined) return yield* Effect.dieMessage("no middle row")
    const cursor: Page.Cursor = { createdAt: DateTime.unsafeMake(row.at), id: row.id }
    return cursor
  })

// Every measured request of a platform, in a fixed order: per filter and order, the first page then a deep one.
const casesOf = (sql: Sql, subject: Subject) =>
  Effect.gen(function* () {
    const cases: Array<Case> = []
    for (const [name, base] of filtersOf(subject)) {
      for (const sortOrder of ["desc", "asc"] as const) {
        const filter: Filter = { ...base, sortOrder }
        cases.push({ label: `${name}, ${sortOrder}, first page`, filter, page: { limit: 20, after: Option.none() } })
        const cursor = yield* middleCursor(sql, subject, filter)
        cases.push({
          label: `${name}, ${sortOrder}, deep page`,
          filter,
          page: { limit: 20, after: Option.some(cursor) }
        })
      }
    }
    return cases
  })

/** Milliseconds of one page request; a page that is not full with more to come is a defect. */
const timeOnce = (repo: Repo, subject: Subject, request: Case) =>
  Effect.gen(function* () {
    const started = performance.now()
    const result = yield* repo.list(subject.platformId, request.filter, request.page)
    const elapsed = performance.now() - started
    if (result.data.length !== request.page.limit || !result.hasMore) {
      return yield* Effect.dieMessage(`${request.label}: ${result.data.length} rows, hasMore ${result.hasMore}`)
    }
    return elapsed
  })

/** Median milliseconds per request over `runs` rounds after a warm-up, the requests taking turns in each round. */
const measure = (repo: Repo, requests: ReadonlyArray<readonly [Subject, Case]>) =>
  Effect.gen(function* () {
    const timings = requests.map((): Array<number> => [])
    for (let run = 0; run < warmUpRuns + runs; run++) {
      const order = requests.map((_, index) => (run % 2 === 0 ? index : requests.length - 1 - index))
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
  accountId: `InternalAccount:${globalThis.crypto.randomUUID()}`,
  seed
})

const cell = (value: number, width = 12) => value.toFixed(3).padStart(width)

const benchmark = Effect.gen(function* () {
  const repo = yield* TransactionRepo.TransactionRepo
  const sql = yield* PgClient
  const record = yield* template
  const grown = subjectOf("g")
  const control = subjectOf("k")
  let started = performance.now()
  yield* load(sql, grown, record, 1, small)
  const alone = yield* measure(
    repo,
    (yield* casesOf(sql, grown)).map((request) => [grown, request] as const)
  )
  console.log(`loaded and measured 10k rows in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  started = performance.now()
  yield* load(sql, grown, record, small + 1, large)
  yield* load(sql, control, record, 1, small)
  console.log(
    `grew to 1M rows (and a second platform of 10k) in ${((performance.now() - started) / 1000).toFixed(1)} s`
  )
  const grownCases = yield* casesOf(sql, grown)
  const controlCases = yield* casesOf(sql, control)
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
    `\n${"page latency, median ms".padEnd(42)}${"10k alone".padStart(12)}${"10k beside".padStart(12)}${"1M".padStart(12)}${"1M/10k".padStart(10)}`
  )
  const ratios = grownCases.map((request, index) => {
    const ratio = (big[index] ?? 0) / (beside[index] ?? 1)
    console.log(
      `${request.label.padEnd(42)}${cell(alone[index] ?? 0)}${cell(beside[index] ?? 0)}${cell(big[index] ?? 0)}${`${ratio.toFixed(2)}x`.padStart(10)}`
    )
    return ratio
  })
  const worst = Math.max(...ratios)
  console.log(
    `\n"10k beside": a platform of 10k transactions next to the 1M one, its calls alternating with the 1M calls`
  )
  console.log(`worst 1M/10k ratio ${worst.toFixed(2)}x (target: within 2x): ${worst <= 2 ? "met" : "NOT met"}`)
})

runMain(async () => {
  const database = await Cluster.open()
  console.log(database.description)
  console.log(
    `TransactionRepo.list (PgTransactionRepo), limit 20; median of ${runs} calls per figure after ${warmUpRuns} warm-up calls`
  )
  const url = Redacted.make(database.url)
  const storage = Layer.merge(
    StoragePostgres.layerPostgres(url, { listenForCredentialChanges: false, maxConnections: 2 }),
    pgLayer({ url, maxConnections: 1, applicationName: "payrail-bench-transactions" })
  )
  const fiber = Effect.runFork(benchmark.pipe(Effect.provide(storage)))
  const exit = await Effect.runPromise(Fiber.await(fiber))
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
})
