import { type Database, psql } from "../http/cluster.js"
import { sleep } from "../http/lifecycle.js"
import { type Latencies, latencies } from "./scenario.js"

// Transaction ids go to psql in chunks: one command-line argument holds at most 128 KB on Linux.
const chunkSize = 1_000

const chunks = <A>(values: ReadonlyArray<A>): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(values.length / chunkSize) }, (_, index) =>
    values.slice(index * chunkSize, (index + 1) * chunkSize)
  )

const idList = (ids: ReadonlyArray<string>) => ids.map((id) => `'${id.replaceAll("'", "''")}'`).join(", ")

/** How many of `transactionIds` are COMPLETED. */
export const completed = async (database: Database, transactionIds: ReadonlyArray<string>): Promise<number> => {
  let count = 0
  for (const ids of chunks(transactionIds)) {
    const text = await psql(
      database.url,
      `SELECT count(*) FROM transactions WHERE status = 'COMPLETED' AND id IN (${idList(ids)})`
    )
    count += Number(text.trim())
  }
  return count
}

/** What the settlement of one run's payments showed. */
export interface Settlement {
  /** Payments not yet COMPLETED when the run ended (the worker's backlog). */
  readonly backlogAtEnd: number
  /** Seconds from the end of the run until every payment was COMPLETED. */
  readonly drainSeconds: number
  /** From the execute's unit of work (the settlement job's `startedAt`) to `settledAt`, in ms. */
  readonly latencyMs: Latencies
}

/**
 * Waits until every one of `transactionIds` is COMPLETED (the server's worker settles them), at most `timeoutMs`;
 * fails naming how many are left. Then reads each one's settle latency: its `settledAt` less the `startedAt` of its
 * settlement job (the time the execute's unit of work read from the clock, just before it committed).
 */
export const awaitSettlement = async (
  database: Database,
  transactionIds: ReadonlyArray<string>,
  timeoutMs: number
): Promise<Settlement> => {
  const started = performance.now()
  const backlogAtEnd = transactionIds.length - (await completed(database, transactionIds))
  let left = backlogAtEnd
  while (left > 0) {
    if (performance.now() - started > timeoutMs) {
      throw new Error(`${left} of ${transactionIds.length} executed payments did not settle within ${timeoutMs} ms`)
    }
    await sleep(100)
    left = transactionIds.length - (await completed(database, transactionIds))
  }
  const drainSeconds = (performance.now() - started) / 1000
  const settled: Array<number> = []
  for (const ids of chunks(transactionIds)) {
    const text = await psql(
      database.url,
      `SELECT extract(epoch FROM (t.record->>'settledAt')::timestamptz - (j.payload->>'startedAt')::timestamptz) * 1000
       FROM transactions t JOIN jobs j ON j.kind = 'payments.settle' AND j.payload->>'transactionId' = t.id
         AND j.deduplication_key = t.id || '@' || (j.payload->>'startedAt')
       WHERE t.id IN (${idList(ids)})`
    )
    for (const line of text.split("\n")) if (line !== "") settled.push(Number(line))
  }
  return { backlogAtEnd, drainSeconds, latencyMs: latencies(settled) }
}
