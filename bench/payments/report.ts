import type { StatementStat } from "../http/statements.js"
import type { Latencies, Variant } from "./scenario.js"
import type { Settlement } from "./settlement.js"

/** What a run measured: the server over HTTP, or pgbench running its units of work. */
export type Subject = "server" | "pgbench"

export const subjectLabels: Record<Subject, string> = {
  server: "server (HTTP)",
  pgbench: "pgbench (same txns)"
}

export const variantLabels: Record<Variant, string> = {
  spread: "spread over pairs",
  hot: "one hot source"
}

/** One measured run. */
export interface Sample {
  readonly variant: Variant
  readonly subject: Subject
  readonly round: number
  readonly payments: number
  readonly perSecond: number
  /** Of a payment: quote + execute over HTTP, one script transaction for pgbench. */
  readonly latencyMs: Latencies
  readonly executeMs: Latencies | undefined
  readonly failures: number
  /** Top-level and nested statements per payment, and PostgreSQL's execution time per payment. */
  readonly statementsPerPayment: number | undefined
  readonly nestedPerPayment: number | undefined
  readonly execMsPerPayment: number | undefined
  readonly statements: ReadonlyArray<StatementStat>
  readonly serverCpuMs: number | undefined
  readonly databaseCpuMs: number | undefined
  readonly clientCpuMs: number | undefined
  readonly settlement: Settlement | undefined
}

/** The targets for the server, spread over pairs: 30% of pgbench's payments/s, p99 at most 25 ms. */
export const targets = { ratio: 0.3, p99Ms: 25 } as const

const median = (values: ReadonlyArray<number>): number => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value) ? "-" : value.toFixed(digits)
const of = (runs: ReadonlyArray<Sample>, pick: (sample: Sample) => number | undefined) =>
  median(runs.flatMap((run) => (pick(run) === undefined ? [] : [pick(run) as number])))

/** A progress line for one run, printed as it finishes. */
export const runLine = (sample: Sample): string =>
  [
    `round ${sample.round + 1}`,
    variantLabels[sample.variant].padEnd(18),
    subjectLabels[sample.subject].padEnd(21),
    `${fixed(sample.perSecond, 0).padStart(5)} payments/s`,
    `p50 ${fixed(sample.latencyMs.p50, 2).padStart(6)} ms`,
    `p99 ${fixed(sample.latencyMs.p99, 2).padStart(7)} ms`,
    sample.statementsPerPayment === undefined ? "" : `${fixed(sample.statementsPerPayment, 1)} stmts/payment`,
    sample.settlement === undefined
      ? ""
      : `${sample.settlement.backlogAtEnd} not COMPLETED at the end (all within ${fixed(sample.settlement.drainSeconds, 1)} s)`,
    sample.failures === 0 ? "" : `FAILURES ${sample.failures}`
  ]
    .filter((cell) => cell !== "")
    .join("  ")

const columns = [
  ["accounts", 18],
  ["subject", 21],
  ["pay/s", 6],
  ["p50 ms", 7],
  ["p99 ms", 7],
  ["exec p99", 9],
  ["% of base", 10],
  ["target", 24],
  ["stmts", 6],
  ["nested", 7],
  ["db exec ms", 11],
  ["node CPU ms", 12],
  ["db CPU ms", 10],
  ["load CPU ms", 12],
  ["not completed", 14],
  ["fail", 5]
] as const

const line = (cells: ReadonlyArray<string>) =>
  cells
    .map((cell, index) => (index < 2 ? cell.padEnd(columns[index]?.[1] ?? 0) : cell.padStart(columns[index]?.[1] ?? 0)))
    .join(" ")

/**
 * The table: per variant, pgbench (the baseline) and the server, medians over rounds; the
 * server's ratio is the median of its per-round ratios to the pgbench run beside it, judged against `targets` in the
 * spread variant.
 */
export const table = (samples: ReadonlyArray<Sample>): string => {
  const lines = [
    line(columns.map(([name]) => name)),
    "-".repeat(columns.reduce((width, [, size]) => width + size + 1, -1))
  ]
  for (const variant of ["spread", "hot"] as const) {
    for (const subject of ["pgbench", "server"] as const) {
      const runs = samples.filter((sample) => sample.variant === variant && sample.subject === subject)
      if (runs.length === 0) continue
      const ratio = median(
        runs.flatMap((run) => {
          const base = samples.find(
            (sample) => sample.variant === variant && sample.subject === "pgbench" && sample.round === run.round
          )
          return base === undefined ? [] : [run.perSecond / base.perSecond]
        })
      )
      const p99 = of(runs, (run) => run.latencyMs.p99)
      const judged = subject === "server" && variant === "spread"
      const met = ratio >= targets.ratio && p99 <= targets.p99Ms
      lines.push(
        line([
          subject === "pgbench" ? variantLabels[variant] : "",
          subjectLabels[subject],
          fixed(
            of(runs, (run) => run.perSecond),
            0
          ),
          fixed(
            of(runs, (run) => run.latencyMs.p50),
            2
          ),
          fixed(p99, 2),
          fixed(
            of(runs, (run) => run.executeMs?.p99),
            2
          ),
          subject === "pgbench" ? "100%" : `${fixed(ratio * 100, 1)}%`,
          judged ? `>=${targets.ratio * 100}%, p99<=${targets.p99Ms} ${met ? "met" : "MISSED"}` : "",
          fixed(
            of(runs, (run) => run.statementsPerPayment),
            1
          ),
          fixed(
            of(runs, (run) => run.nestedPerPayment),
            1
          ),
          fixed(
            of(runs, (run) => run.execMsPerPayment),
            3
          ),
          fixed(
            of(runs, (run) => run.serverCpuMs),
            3
          ),
          fixed(
            of(runs, (run) => run.databaseCpuMs),
            3
          ),
          fixed(
            of(runs, (run) => run.clientCpuMs),
            3
          ),
          subject === "server" ? String(runs.reduce((sum, run) => sum + (run.settlement?.backlogAtEnd ?? 0), 0)) : "",
          String(runs.reduce((sum, run) => sum + run.failures, 0))
        ])
      )
    }
  }
  return lines.join("\n")
}

/** The statements of one run per payment, most called first (as bench/webhooks prints them). */
export const statementLines = (sample: Sample, top = 40): string =>
  sample.statements
    .slice(0, top)
    .map(
      (statement) =>
        `  ${(statement.calls / Math.max(1, sample.payments)).toFixed(3).padStart(7)}  ${statement.toplevel ? "top   " : "nested"}  ` +
        `${(statement.totalExecMs / Math.max(1, statement.calls)).toFixed(3).padStart(7)} ms  ${statement.query.slice(0, 120)}`
    )
    .join("\n")
