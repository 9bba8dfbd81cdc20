import { type Database, psql } from "../http/cluster.js"
import type { Accounts, Variant } from "./scenario.js"
import { paymentMinor } from "./scenario.js"

/** The rows one payment the server made left, read back so that pgbench writes rows of the same size. */
export interface PaymentShape {
  readonly platformId: string
  readonly quoteCustomerId: string
  readonly quoteRecord: string
  readonly transaction: {
    readonly customerId: string
    readonly platformCustomerId: string | undefined
    readonly sender: string
    readonly receiver: string
    readonly type: string
    readonly record: string
  }
  readonly fingerprint: string
  readonly description: string
  readonly eventType: string
  readonly eventData: string
  readonly expiryPayload: string
  /** What the execute merges into the transaction's record (`TransactionRepo.advance`): its status and times. */
  readonly completion: string
}

const rowOf = async (database: Database, sql: string): Promise<Array<string>> => {
  const row = (await psql(database.url, sql)).split("\n")[0]
  if (row === undefined || row === "") throw new Error(`no row for: ${sql}`)
  return row.split("\t")
}

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`

/** The rows of the settled payment whose transaction is `transactionId`: quote, transaction, posting, event, jobs. */
export const readPayment = async (database: Database, transactionId: string): Promise<PaymentShape> => {
  const id = quoted(transactionId)
  const [
    platformId = "",
    customerId = "",
    platformCustomerId = "",
    sender = "",
    receiver = "",
    type = "",
    record = "",
    completion = ""
  ] = await rowOf(
    database,
    `SELECT platform_id, customer_id, coalesce(platform_customer_id, ''), sender_identifier, receiver_identifier,
         type, record::text, jsonb_build_object('status', record->'status', 'updatedAt', record->'updatedAt',
         'settledAt', record->'settledAt')::text FROM transactions WHERE id = ${id}`
  )
  const [quoteId = "", quoteCustomerId = "", quoteRecord = ""] = await rowOf(
    database,
    `SELECT q.id, q.customer_id, q.record::text FROM quotes q JOIN transactions t ON q.id = t.record->>'quoteId'
     WHERE t.id = ${id}`
  )
  const [fingerprint = "", description = ""] = await rowOf(
    database,
    `SELECT p.fingerprint, p.description FROM ledger_postings p JOIN quotes q ON p.idempotency_key = 'quote:' || q.id
     JOIN transactions t ON q.id = t.record->>'quoteId' WHERE t.id = ${id}`
  )
  const [eventType = "", eventData = ""] = await rowOf(
    database,
    `SELECT type, data::text FROM outbox WHERE data->>'id' = ${id} AND data->>'status' = 'COMPLETED'`
  )
  const [expiryPayload = ""] = await rowOf(
    database,
    `SELECT payload::text FROM jobs WHERE kind = 'payments.quote-expiry' AND payload->>'quoteId' = ${quoted(quoteId)}`
  )
  return {
    platformId,
    quoteCustomerId,
    quoteRecord,
    transaction: {
      customerId,
      platformCustomerId: platformCustomerId === "" ? undefined : platformCustomerId,
      sender,
      receiver,
      type,
      record
    },
    fingerprint,
    description,
    eventType,
    eventData,
    expiryPayload,
    completion
  }
}

// A string literal for a pgbench script. pgbench reads `:name` as a variable (in prepared mode, any colon followed
// by letters or digits), so a colon inside a literal is spliced in as its own literal: 'Platform' || ':' || '0194…'.
const literal = (text: string): string =>
  `'${text.replaceAll("'", "''").replace(/:(?=[A-Za-z0-9_])/g, "' || ':' || '")}'`
const jsonb = (text: string) => `CAST(${literal(text)} AS jsonb)`
const textArray = (values: ReadonlyArray<string>) => `CAST(ARRAY[${values.map(literal).join(", ")}] AS text[])`

const jobInsert = (platform: string, kind: string, payload: string, deduplicationKey: string, returning = "") =>
  `INSERT INTO jobs (id, kind, payload, platform_id, status, due_at, attempts, deduplication_key, created_at, updated_at) ` +
  `VALUES ('Job' || ':' || CAST(gen_random_uuid() AS text), ${literal(kind)}, ${jsonb(payload)}, ${platform}, 'PENDING', ` +
  `now() + interval '1 day', 0, ${deduplicationKey}, now(), now()) ` +
  `ON CONFLICT (kind, deduplication_key) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING${returning === "" ? ";" : returning}`

/**
 * One payment as the server's two units of work run it, statement for statement (the statements
 * pg_stat_statements shows for `Quotes.create` and `Quotes.execute` on PgQuoteRepo, PgTransactionRepo, PgLedger
 * and PgJobs), with the records of a payment the server made:
 * 1. quote: BEGIN; INSERT quote; INSERT transaction; INSERT the expiry job; COMMIT.
 * 2. execute (a book transfer settles in it): SELECT the quote (read by the request before its unit of work); BEGIN;
 *    SELECT the customer (the authorization gate's check); the quote's guarded UPDATE (PENDING to COMPLETED); the
 *    transaction's guarded UPDATE (to COMPLETED, its status and times merged into the record, no read before it:
 *    `TransactionRepo.advance`); `payrail_ledger_post` of the posted posting (the guarded balance updates in account
 *    id order, the posting and its entries) with the webhook event inserted into the outbox in the same statement;
 *    COMMIT.
 * Each pgbench client pays between the same accounts as the HTTP client of its number (`pairFor`): in the spread
 * variant a pair of its own at random among its pairs, in the hot one from the hot source. The reads before the
 * quote's unit of work (the two accounts and the customer, as the server reads them) are not in it, as in the fund
 * baseline of bench/http. Expiry jobs are due in a day, as the server's are due minutes later: neither wakes a worker.
 */
export const paymentScript = (shape: PaymentShape, accounts: Accounts, variant: Variant, clients: number): string => {
  const platform = literal(shape.platformId)
  const own = Math.max(1, Math.floor(accounts.pairs.length / clients))
  const sources = variant === "hot" ? [accounts.hotSource] : accounts.pairs.map((pair) => pair.source)
  const destinations = accounts.pairs.map((pair) => pair.destination)
  const at = (values: ReadonlyArray<string>, index: string) => `(${textArray(values)})[CAST(${index} AS int)]`
  const source = at(sources, variant === "hot" ? "1" : ":pair")
  const destination = at(destinations, ":pair")
  const t = shape.transaction
  // What the execute merges into the transaction's record (`TransactionRepo.advance`): the status and its times.
  const lines = [
    `\\set pair 1 + :client_id % ${clients} + ${clients} * random(0, ${own - 1})`,
    "BEGIN;",
    `INSERT INTO quotes (id, platform_id, customer_id, status, record, created_at) VALUES ('Quote' || ':' || CAST(gen_random_uuid() AS text), ${platform}, ${literal(shape.quoteCustomerId)}, 'PENDING', ${jsonb(shape.quoteRecord)}, now()) RETURNING id AS quote_id \\gset`,
    `INSERT INTO transactions (id, platform_id, customer_id, platform_customer_id, sender_identifier, receiver_identifier, status, type, reference, posting_id, record, created_at) ` +
      `VALUES ('Transaction' || ':' || CAST(gen_random_uuid() AS text), ${platform}, ${literal(t.customerId)}, ${t.platformCustomerId === undefined ? "NULL" : literal(t.platformCustomerId)}, ${literal(t.sender)}, ${literal(t.receiver)}, 'PENDING', ${literal(t.type)}, NULL, NULL, ${jsonb(t.record)}, now()) RETURNING id AS transaction_id \\gset`,
    jobInsert(platform, "payments.quote-expiry", shape.expiryPayload, ":quote_id"),
    "END;",
    `SELECT record FROM quotes WHERE platform_id = ${platform} AND id = :quote_id;`,
    "BEGIN;",
    `SELECT record, identifier, version FROM customers WHERE platform_id = ${platform} AND id = ${literal(shape.quoteCustomerId)};`,
    `UPDATE quotes SET customer_id = ${literal(shape.quoteCustomerId)}, status = 'COMPLETED', record = ${jsonb(shape.quoteRecord)}, created_at = now() WHERE platform_id = ${platform} AND id = :quote_id AND status = 'PENDING' RETURNING id;`,
    `UPDATE transactions SET status = 'COMPLETED', posting_id = NULL, record = record || ${jsonb(shape.completion)} ` +
      `WHERE platform_id = ${platform} AND id = :transaction_id AND status = 'PENDING' RETURNING record, posting_id;`,
    `WITH posted AS (SELECT outcome, posting_id, detail, balance_account_ids, CAST(balance_posted_minor AS text[]) AS balance_posted_minor, CAST(balance_pending_debits_minor AS text[]) AS balance_pending_debits_minor, CAST(balance_pending_credits_minor AS text[]) AS balance_pending_credits_minor ` +
      `FROM payrail_ledger_post(${platform}, 'quote' || ':' || :quote_id, ${literal(shape.fingerprint)}, 'posted', ${literal(shape.description)}, now(), ` +
      `ARRAY[${source}, ${destination}], CAST(ARRAY['USD', 'USD'] AS text[]), CAST(ARRAY[${-paymentMinor}, ${paymentMinor}] AS bigint[]))), ` +
      `d0 AS (SELECT ${jsonb(shape.eventData)} AS data FROM posted WHERE outcome = 'applied'), ` +
      `recorded AS (INSERT INTO outbox (id, platform_id, type, timestamp, data) SELECT 'Webhook' || ':' || CAST(gen_random_uuid() AS text), ${platform}, ${literal(shape.eventType)}, now(), data FROM d0) ` +
      `SELECT * FROM posted;`,
    "END;"
  ]
  return `${lines.join("\n")}\n`
}
