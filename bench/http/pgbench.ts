import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { type Database, pgBin, psql } from "./cluster.js"
import type { LoadResult } from "./load.js"

/** The arguments of one sandbox funding's ledger call and event, read back from a funding the server made. */
export interface FundingShape {
  readonly platformId: string
  readonly fingerprint: string
  readonly description: string
  readonly accountIds: ReadonlyArray<string>
  readonly currencies: ReadonlyArray<string>
  readonly amounts: ReadonlyArray<string>
  /** The guarded account (the funded internal account), whose balance SandboxFunding reads back. */
  readonly fundedAccountId: string
  readonly eventType: string
  readonly eventData: string
  /** The funding's transaction row: its list columns (in `transactionColumns` order, NULL as `null`) and record. */
  readonly transactionValues: ReadonlyArray<string | null>
  readonly transactionRecord: string
}

/** The list columns of a `transactions` row that the fund statement fills from constants. */
const transactionColumns = [
  "customer_id",
  "platform_customer_id",
  "sender_identifier",
  "receiver_identifier",
  "status",
  "type",
  "reference"
] as const

const single = async (database: Database, sql: string): Promise<Array<string>> => {
  const row = (await psql(database.url, sql)).split("\n")[0]
  if (row === undefined || row === "") throw new Error(`no row for: ${sql}`)
  return row.split("\t")
}

const arrayOf = (text: string | undefined): Array<string> => (text ?? "").replace(/^\{|\}$/g, "").split(",")

/**
 * The shape of the funding with `idempotencyKey` (as SandboxFunding stored it: `sandbox-fund:<key>`): its ledger
 * posting, entries, transaction and INCOMING_PAYMENT event, so pgbench can replay the same unit of work with fresh
 * keys.
 */
export const readFunding = async (database: Database, idempotencyKey: string): Promise<FundingShape> => {
  const key = `sandbox-fund:${idempotencyKey}`.replaceAll("'", "''")
  const [platformId, fingerprint, description, postingId, accountIds, currencies, amounts] = await single(
    database,
    `SELECT p.platform_id, p.fingerprint, p.description, p.id, array_agg(e.account_id ORDER BY e.line),
       array_agg(e.currency ORDER BY e.line), array_agg(e.amount_minor ORDER BY e.line)
     FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id
     WHERE p.idempotency_key = '${key}' GROUP BY p.id`
  )
  const [fundedAccountId] = await single(
    database,
    `SELECT e.account_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.guarded WHERE e.posting_id = '${postingId}'`
  )
  // psql prints NULL as an empty field, which a text column may hold too: NULLs come back as a marker instead.
  const [transactionId, transactionRecord, ...transactionValues] = await single(
    database,
    `SELECT id, record::text, ${transactionColumns.map((column) => `coalesce(${column}, '<null>')`).join(", ")}
     FROM transactions WHERE posting_id = '${postingId}'`
  )
  const [eventType, eventData] = await single(
    database,
    `SELECT type, data::text FROM outbox WHERE data->>'id' = '${transactionId}'`
  )
  if (
    platformId === undefined ||
    fingerprint === undefined ||
    description === undefined ||
    fundedAccountId === undefined
  ) {
    throw new Error("the seeded funding is incomplete")
  }
  return {
    platformId,
    fingerprint,
    description,
    accountIds: arrayOf(accountIds),
    currencies: arrayOf(currencies),
    amounts: arrayOf(amounts),
    fundedAccountId,
    eventType: eventType ?? "",
    eventData: eventData ?? "",
    transactionValues: transactionValues.map((value) => (value === "<null>" ? null : value)),
    transactionRecord: transactionRecord ?? ""
  }
}

// A string literal for a pgbench script. pgbench reads `:name` as a variable (in prepared mode, any colon followed
// by letters or digits), so a colon inside a literal is spliced in as its own literal: 'Platform' || ':' || '0194…'.
const literal = (text: string): string =>
  `'${text.replaceAll("'", "''").replace(/:(?=[A-Za-z0-9_])/g, "' || ':' || '")}'`
const textArray = (values: ReadonlyArray<string>) => `ARRAY[${values.map(literal).join(", ")}]`

/**
 * One sandbox funding's unit of work as SandboxFunding runs it (PgLedger.post, PgLedger.balance, PgOutbox.append
 * inside Store.transaction): BEGIN; payrail_ledger_post with a fresh idempotency key, crediting the same hot
 * internal account and debiting the platform's rail clearing account; the guarded balance read; the event insert;
 * END. The reads before and after the unit of work (credentials, platform, account) are not in it.
 */
export const fundScript = (shape: FundingShape): string =>
  [
    "BEGIN;",
    `SELECT outcome, posting_id, detail FROM payrail_ledger_post(${literal(shape.platformId)}, 'sandbox-fund' || ':' || 'pgbench-' || CAST(gen_random_uuid() AS text), ${literal(shape.fingerprint)}, 'posted', ${literal(shape.description)}, now(), CAST(${textArray(shape.accountIds)} AS text[]), CAST(${textArray(shape.currencies)} AS text[]), CAST(ARRAY[${shape.amounts.join(", ")}] AS bigint[]));`,
    `SELECT currency, guarded, CAST(posted_minor AS text) AS posted, CAST(pending_debits_minor AS text) AS pending_debits, CAST(pending_credits_minor AS text) AS pending_credits FROM ledger_accounts WHERE id = ${literal(shape.fundedAccountId)} AND platform_id = ${literal(shape.platformId)};`,
    `INSERT INTO outbox (id, platform_id, type, timestamp, data) VALUES ('Webhook' || ':' || CAST(gen_random_uuid() AS text), ${literal(shape.platformId)}, ${literal(shape.eventType)}, now(), CAST(${literal(shape.eventData)} AS jsonb));`,
    "END;",
    ""
  ].join("\n")

/**
 * One sandbox funding as SandboxFunding runs it now (`TransactionRepo.insertPosted` on PostgreSQL): a single
 * statement, in its own transaction, that calls payrail_ledger_post with a fresh idempotency key and, when it
 * applied, inserts the INCOMING_PAYMENT event (the whole transaction as its data) and the funding's transaction row
 * (a fresh id, the posting's id). This is the bench's baseline for the fund endpoint. The reads before it
 * (credentials, account, its owner) are not in it.
 */
export const fundStatementScript = (shape: FundingShape): string => {
  const values = shape.transactionValues.map((value) => (value === null ? "CAST(NULL AS text)" : literal(value)))
  return [
    `WITH posted AS MATERIALIZED (SELECT * FROM payrail_ledger_post(${literal(shape.platformId)}, 'sandbox-fund' || ':' || 'pgbench-' || CAST(gen_random_uuid() AS text), ${literal(shape.fingerprint)}, 'posted', ${literal(shape.description)}, now(), CAST(${textArray(shape.accountIds)} AS text[]), CAST(${textArray(shape.currencies)} AS text[]), CAST(ARRAY[${shape.amounts.join(", ")}] AS bigint[]))),` +
      ` d0 AS (SELECT CAST(${literal(shape.eventData)} AS jsonb) AS data FROM posted WHERE outcome = 'applied'),` +
      ` recorded AS (INSERT INTO outbox (id, platform_id, type, timestamp, data) SELECT 'Webhook' || ':' || CAST(gen_random_uuid() AS text), ${literal(shape.platformId)}, ${literal(shape.eventType)}, now(), data FROM d0),` +
      ` inserted AS (INSERT INTO transactions (id, platform_id, ${transactionColumns.join(", ")}, posting_id, record, created_at) SELECT 'Transaction' || ':' || CAST(gen_random_uuid() AS text), ${literal(shape.platformId)}, ${values.join(", ")}, posted.posting_id, CAST(${literal(shape.transactionRecord)} AS jsonb), now() FROM posted WHERE posted.outcome = 'applied')` +
      ` SELECT outcome, posting_id, detail FROM posted;`,
    ""
  ].join("\n")
}

const percentile = (sorted: ReadonlyArray<number>, fraction: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN

/**
 * Runs `script` with pgbench (prepared statements, `clients` connections, 2 threads) for `seconds` and reads its
 * per-transaction log for latency percentiles. Failed transactions count as errors; an aborted run throws.
 */
export const runPgbench = async (
  database: Database,
  script: string,
  clients: number,
  seconds: number
): Promise<LoadResult> => {
  const directory = await mkdtemp(path.join(tmpdir(), "payrail-bench-http-pgbench-"))
  try {
    const file = path.join(directory, "fund.sql")
    await writeFile(file, script)
    const args = [
      "-n",
      "-M",
      "prepared",
      "-c",
      String(clients),
      "-j",
      "2",
      "-T",
      String(seconds),
      "-f",
      file,
      "-l",
      `--log-prefix=${path.join(directory, "log")}`,
      database.url
    ]
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(pgBin("pgbench"), args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, out, err) =>
        error === null && !/aborted/.test(out + err) ? resolve(out) : reject(new Error(`pgbench failed: ${err}${out}`))
      )
    )
    const tps = /tps = ([0-9.]+)/.exec(stdout)?.[1]
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? "0")
    if (tps === undefined) throw new Error(`pgbench printed no tps:\n${stdout}`)
    const latencies: Array<number> = []
    for (const name of await readdir(directory)) {
      if (!name.startsWith("log")) continue
      for (const line of (await readFile(path.join(directory, name), "utf8")).split("\n")) {
        const micros = line.split(" ")[2]
        if (micros !== undefined) latencies.push(Number(micros) / 1000)
      }
    }
    latencies.sort((a, b) => a - b)
    return {
      requests: latencies.length,
      perSecond: Number(tps),
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      non2xx: failed,
      statuses: failed > 0 ? { failed } : {},
      errors: 0,
      timeouts: 0
    }
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}
