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
  readonly settlePayload: string
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
    record = ""
  ] = await rowOf(
    database,
    `SELECT platform_id, customer_id, coalesce(platform_customer_id, ''), sender_identifier, receiver_identifier,
         type, record::text FROM transactions WHERE id = ${id}`
  )
  const [quoteId = "", quoteCustomerId = "", quoteRecord = ""] = await rowOf(
    database,
    `SELECT q.id, q.customer_id, q.record::text FROM quotes q JOIN transactions t ON q.id = t.record->>'quoteId'
     WHERE t.id = ${id}`
  )
  const [fingerprint = "", description = ""] = await rowOf(
    database,
    `SELECT p.fingerprint, p.description FROM ledger_postings p JOIN transactions t ON p.id = t.posting_id
     WHERE t.id = ${id}`
  )
  const [eventType = "", eventData = ""] = await rowOf(
    database,
    `SELECT type, data::text FROM outbox WHERE data->>'id' = ${id} AND data->>'status' = 'PROCESSING'`
  )
  const [expiryPayload = ""] = await rowOf(
    database,
    `SELECT payload::text FROM jobs WHERE kind = 'payments.quote-expiry' AND payload->>'quoteId' = ${quoted(quoteId)}`
  )
  const [settlePayload = ""] = await rowOf(
    database,
    `SELECT payload::text FROM jobs WHERE kind = 'payments.settle' AND payload->>'transactionId' = ${id} LIMIT 1`
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
    settlePayload
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
 * pg_stat_statements shows for `Quotes.create` and `Quotes.execute` on PgQuoteRepo, PgTransactionRepo, PgLedger,
 * PgOutbox and PgJobs), with the records of a payment the server made:
 * 1. quote: BEGIN; INSERT quote; INSERT transaction; INSERT the expiry job; COMMIT.
 * 2. execute: BEGIN; SELECT the quote; its guarded UPDATE (PENDING to PROCESSING); `payrail_ledger_post` of the
 *    pending posting (the guarded balance updates in account id order, the posting and its entries); SELECT the
 *    transaction; its guarded UPDATE with the posting id; INSERT the webhook event into the outbox; INSERT the
 *    settlement job; COMMIT.
 * Each pgbench client pays between the same accounts as the HTTP client of its number (`pairFor`): in the spread
 * variant a pair of its own at random among its pairs, in the hot one from the hot source. The reads before the
 * quote's unit of work (the two accounts and the customer, as the server reads them) are not in it, as in the fund
 * baseline of bench/http. Jobs are due in a day, so the server's worker never runs pgbench's. With `settle`, a
 * third unit of work follows as the settlement job runs it (SELECT transaction and quote; BEGIN; guarded UPDATEs of
 * both to COMPLETED; INSERT the event; `payrail_ledger_settle`; COMMIT; the job marked DONE).
 */
export const paymentScript = (
  shape: PaymentShape,
  accounts: Accounts,
  variant: Variant,
  clients: number,
  settle: boolean
): string => {
  const platform = literal(shape.platformId)
  const own = Math.max(1, Math.floor(accounts.pairs.length / clients))
  const sources = variant === "hot" ? [accounts.hotSource] : accounts.pairs.map((pair) => pair.source)
  const destinations = accounts.pairs.map((pair) => pair.destination)
  const at = (values: ReadonlyArray<string>, index: string) => `(${textArray(values)})[CAST(${index} AS int)]`
  const source = at(sources, variant === "hot" ? "1" : ":pair")
  const destination = at(destinations, ":pair")
  const t = shape.transaction
  const transactionColumns = (status: string) =>
    `customer_id = ${literal(t.customerId)}, platform_customer_id = ${t.platformCustomerId === undefined ? "NULL" : literal(t.platformCustomerId)}, ` +
    `sender_identifier = ${literal(t.sender)}, receiver_identifier = ${literal(t.receiver)}, status = '${status}', ` +
    `type = ${literal(t.type)}, reference = NULL, posting_id = :posting_id, record = ${jsonb(t.record)}, created_at = now()`
  const lines = [
    `\\set pair 1 + :client_id % ${clients} + ${clients} * random(0, ${own - 1})`,
    "BEGIN;",
    `INSERT INTO quotes (id, platform_id, customer_id, status, record, created_at) VALUES ('Quote' || ':' || CAST(gen_random_uuid() AS text), ${platform}, ${literal(shape.quoteCustomerId)}, 'PENDING', ${jsonb(shape.quoteRecord)}, now()) RETURNING id AS quote_id \\gset`,
    `INSERT INTO transactions (id, platform_id, customer_id, platform_customer_id, sender_identifier, receiver_identifier, status, type, reference, posting_id, record, created_at) ` +
      `VALUES ('Transaction' || ':' || CAST(gen_random_uuid() AS text), ${platform}, ${literal(t.customerId)}, ${t.platformCustomerId === undefined ? "NULL" : literal(t.platformCustomerId)}, ${literal(t.sender)}, ${literal(t.receiver)}, 'PENDING', ${literal(t.type)}, NULL, NULL, ${jsonb(t.record)}, now()) RETURNING id AS transaction_id \\gset`,
    jobInsert(platform, "payments.quote-expiry", shape.expiryPayload, ":quote_id"),
    "END;",
    "BEGIN;",
    `SELECT record FROM quotes WHERE platform_id = ${platform} AND id = :quote_id;`,
    `UPDATE quotes SET customer_id = ${literal(shape.quoteCustomerId)}, status = 'PROCESSING', record = ${jsonb(shape.quoteRecord)}, created_at = now() WHERE platform_id = ${platform} AND id = :quote_id AND status = 'PENDING' RETURNING id;`,
    `SELECT outcome, posting_id, detail, balance_account_ids, CAST(balance_posted_minor AS text[]) AS balance_posted_minor, CAST(balance_pending_debits_minor AS text[]) AS balance_pending_debits_minor, CAST(balance_pending_credits_minor AS text[]) AS balance_pending_credits_minor ` +
      `FROM payrail_ledger_post(${platform}, 'quote' || ':' || :quote_id, ${literal(shape.fingerprint)}, 'pending', ${literal(shape.description)}, now(), ` +
      `ARRAY[${source}, ${destination}], CAST(ARRAY['USD', 'USD'] AS text[]), CAST(ARRAY[${-paymentMinor}, ${paymentMinor}] AS bigint[])) \\gset`,
    `SELECT record, posting_id FROM transactions WHERE platform_id = ${platform} AND id = :transaction_id;`,
    `UPDATE transactions SET ${transactionColumns("PROCESSING")} WHERE platform_id = ${platform} AND id = :transaction_id AND status = 'PENDING' RETURNING id;`,
    `INSERT INTO outbox (id, platform_id, type, timestamp, data) VALUES ('Webhook' || ':' || CAST(gen_random_uuid() AS text), ${platform}, ${literal(shape.eventType)}, now(), ${jsonb(shape.eventData)});`,
    jobInsert(
      platform,
      "payments.settle",
      shape.settlePayload,
      ":transaction_id || '@' || CAST(now() AS text)",
      settle ? " RETURNING id AS settle_job_id \\gset" : ""
    ),
    "END;"
  ]
  if (settle) {
    lines.push(
      `SELECT record, posting_id FROM transactions WHERE platform_id = ${platform} AND id = :transaction_id;`,
      `SELECT record FROM quotes WHERE platform_id = ${platform} AND id = :quote_id;`,
      "BEGIN;",
      `UPDATE transactions SET ${transactionColumns("COMPLETED")} WHERE platform_id = ${platform} AND id = :transaction_id AND status = 'PROCESSING' RETURNING id;`,
      `UPDATE quotes SET customer_id = ${literal(shape.quoteCustomerId)}, status = 'COMPLETED', record = ${jsonb(shape.quoteRecord)}, created_at = now() WHERE platform_id = ${platform} AND id = :quote_id AND status = 'PROCESSING' RETURNING id;`,
      `INSERT INTO outbox (id, platform_id, type, timestamp, data) VALUES ('Webhook' || ':' || CAST(gen_random_uuid() AS text), ${platform}, ${literal(shape.eventType)}, now(), ${jsonb(shape.eventData)});`,
      `SELECT payrail_ledger_settle(${platform}, :posting_id, 'posted') AS settled;`,
      "END;",
      "UPDATE jobs SET status = 'DONE', updated_at = now() WHERE id = :settle_job_id AND status = 'PENDING';"
    )
  }
  return `${lines.join("\n")}\n`
}
