import { type Database, psql } from "../http/cluster.js"
import { sleep } from "../http/lifecycle.js"

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
  /** Payments not yet COMPLETED when the run ended: 0 for book transfers, which settle in their execute. */
  readonly backlogAtEnd: number
  /** Seconds from the end of the run until every payment was COMPLETED. */
  readonly drainSeconds: number
}

/**
 * Waits until every one of `transactionIds` is COMPLETED, at most `timeoutMs`, and fails naming how many are left:
 * a payment the bench counted must have happened.
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
  return { backlogAtEnd, drainSeconds: (performance.now() - started) / 1000 }
}
