import { type Database, psql } from "./cluster.js"

/** One normalized statement of pg_stat_statements, over one run. */
export interface StatementStat {
  /** False for statements run inside a function (pg_stat_statements.track = all). */
  readonly toplevel: boolean
  readonly calls: number
  readonly totalExecMs: number
  readonly query: string
}

/** Statements per request over one run, split as the client sent them and as functions ran them inside. */
export interface StatementCounts {
  readonly perRequest: number
  readonly nestedPerRequest: number
  /** Execution time inside PostgreSQL per request (top-level statements, so nested time is counted once). */
  readonly execMsPerRequest: number
  readonly statements: ReadonlyArray<StatementStat>
}

/** Forgets every statement count (of the whole cluster). */
export const resetStatements = async (database: Database): Promise<void> => {
  if (database.statements) await psql(database.adminUrl, "SELECT pg_stat_statements_reset()")
}

/** The statements run in the bench's database since the last reset, most called first. */
export const readStatements = async (database: Database): Promise<ReadonlyArray<StatementStat>> => {
  if (!database.statements) return []
  const output = await psql(
    database.adminUrl,
    `SELECT s.toplevel, s.calls, s.total_exec_time, regexp_replace(s.query, '\\s+', ' ', 'g')
     FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = '${database.name}' ORDER BY s.calls DESC, s.query`
  )
  return output
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [toplevel, calls, totalExecMs, ...query] = line.split("\t")
      return {
        toplevel: toplevel === "t",
        calls: Number(calls),
        totalExecMs: Number(totalExecMs),
        query: query.join("\t")
      }
    })
}

/** Statement counts per request of a run that completed `requests` requests. */
export const perRequest = (statements: ReadonlyArray<StatementStat>, requests: number): StatementCounts => {
  const sum = (pick: (statement: StatementStat) => number, toplevel: boolean) =>
    statements
      .filter((statement) => statement.toplevel === toplevel)
      .reduce((total, statement) => total + pick(statement), 0) / Math.max(1, requests)
  return {
    perRequest: sum((statement) => statement.calls, true),
    nestedPerRequest: sum((statement) => statement.calls, false),
    execMsPerRequest: sum((statement) => statement.totalExecMs, true),
    statements
  }
}
