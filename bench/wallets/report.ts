import type { StatementStat } from "../http/statements.js"

/** The bench's target: signed retries per second at 50% or more of bare verification of the same stamps. */
export const targetRatio = 0.5

/** One round: the server's measured run next to the baseline's. */
export interface Round {
  readonly round: number
  readonly retriesPerSecond: number
  readonly retries: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly failures: Readonly<Record<string, number>>
  readonly exhausted: boolean
  /** Bare verifications per second on one thread, of the same stamps. */
  readonly baselinePerSecond: number
  /** Active sessions per wallet when the measured run started (what `listActive` reads in each retry). */
  readonly sessionsPerWallet: number
  readonly statementsPerRetry: number | undefined
  readonly nestedPerRetry: number | undefined
  readonly execMsPerRetry: number | undefined
  readonly serverCpuMs: number
  readonly databaseCpuMs: number | undefined
  readonly clientCpuMs: number
  readonly statements: ReadonlyArray<StatementStat>
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value) ? "-" : value.toFixed(digits)

const ratioOf = (round: Round) => round.retriesPerSecond / round.baselinePerSecond

/** One line per round, as it finishes. */
export const roundLine = (round: Round): string =>
  [
    `round ${round.round + 1}:`,
    `${fixed(round.retriesPerSecond, 0)} retries/s (${round.retries}${round.exhausted ? ", ran out of prepared retries" : ""}),`,
    `p50 ${fixed(round.p50Ms, 2)} ms, p99 ${fixed(round.p99Ms, 2)} ms;`,
    `bare verify ${fixed(round.baselinePerSecond, 0)}/s;`,
    `${fixed(ratioOf(round) * 100, 1)}% of bare;`,
    `node CPU ${fixed(round.serverCpuMs, 3)} ms/retry;`,
    `${fixed(round.sessionsPerWallet, 0)} sessions/wallet at the start`,
    Object.keys(round.failures).length === 0 ? "" : `; failures ${JSON.stringify(round.failures)}`
  ].join(" ")

/** The medians over rounds, as a table, with the target's verdict. */
export const table = (rounds: ReadonlyArray<Round>): string => {
  const of = (pick: (round: Round) => number | undefined) =>
    median(rounds.map(pick).filter((value): value is number => value !== undefined))
  const ratio = of(ratioOf)
  const rows: ReadonlyArray<readonly [string, string]> = [
    [
      "signed retries/s (DELETE /auth/sessions/{id}, 204)",
      fixed(
        of((round) => round.retriesPerSecond),
        0
      )
    ],
    [
      "retry latency p50 ms",
      fixed(
        of((round) => round.p50Ms),
        2
      )
    ],
    [
      "retry latency p99 ms",
      fixed(
        of((round) => round.p99Ms),
        2
      )
    ],
    [
      "bare node:crypto verify/s, one thread",
      fixed(
        of((round) => round.baselinePerSecond),
        0
      )
    ],
    [`% of bare (target ${targetRatio * 100}% or more)`, `${fixed(ratio * 100, 1)}%`],
    [
      "statements per retry (top level)",
      fixed(
        of((round) => round.statementsPerRetry),
        2
      )
    ],
    [
      "statements per retry (inside functions)",
      fixed(
        of((round) => round.nestedPerRetry),
        2
      )
    ],
    [
      "PostgreSQL exec ms per retry",
      fixed(
        of((round) => round.execMsPerRetry),
        3
      )
    ],
    [
      "node CPU ms per retry (server, all threads)",
      fixed(
        of((round) => round.serverCpuMs),
        3
      )
    ],
    [
      "PostgreSQL CPU ms per retry (own cluster)",
      fixed(
        of((round) => round.databaseCpuMs),
        3
      )
    ],
    [
      "load CPU ms per retry (this process)",
      fixed(
        of((round) => round.clientCpuMs),
        3
      )
    ],
    [
      "active sessions per wallet at the start of a run",
      fixed(
        of((round) => round.sessionsPerWallet),
        0
      )
    ]
  ]
  const width = Math.max(...rows.map(([label]) => label.length))
  const verdict = Number.isFinite(ratio) && ratio >= targetRatio ? "met" : "not met"
  return [...rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`), `target: ${verdict}`].join("\n")
}

/** The statements of one run per retry: calls per retry and mean time, most called first. */
export const statementLines = (round: Round, top = 30): string =>
  round.statements
    .slice(0, top)
    .map((statement) => {
      const calls = (statement.calls / Math.max(1, round.retries)).toFixed(2).padStart(6)
      const mean = (statement.totalExecMs / Math.max(1, statement.calls)).toFixed(3).padStart(7)
      const nested = statement.toplevel ? "" : "  (nested)"
      return `  ${calls}  ${mean} ms  ${statement.query.slice(0, 150)}${nested}`
    })
    .join("\n")
