import type { LoadResult } from "./load.js"
import { type Endpoint, endpointLabels, endpoints } from "./scenario.js"
import type { StatementCounts } from "./statements.js"

/** What a run measured: the raw node:http baseline, pgbench, or the reference server on one storage. */
export type Subject = "raw" | "pgbench" | "postgres" | "pglite"

export const subjectLabels: Record<Subject, string> = {
  raw: "raw node:http",
  pgbench: "pgbench (same txn)",
  postgres: "PostgreSQL",
  pglite: "PGlite"
}

/** One measured run. */
export interface Sample {
  readonly endpoint: Endpoint
  readonly subject: Subject
  readonly round: number
  readonly load: LoadResult
  readonly statements: StatementCounts | undefined
  /** CPU time of the server process per request (all its threads), in ms. */
  readonly serverCpuMs: number | undefined
  /** CPU time of PostgreSQL (postmaster and every backend) per request, in ms; only on the bench's own cluster. */
  readonly databaseCpuMs: number | undefined
  /** CPU time of the load generator (autocannon in the bench process) per request, in ms; not for pgbench. */
  readonly clientCpuMs: number | undefined
}

/** The issue's targets: the share of the baseline's requests/s, and for funding the p99 too. */
interface Target {
  readonly ratio: number
  readonly p99Ms?: number
}

const targets: Partial<Record<Endpoint, Partial<Record<Subject, Target>>>> = {
  health: { postgres: { ratio: 0.3 }, pglite: { ratio: 0.3 } },
  getCustomer: { postgres: { ratio: 0.15 }, pglite: { ratio: 0.05 } },
  fund: { postgres: { ratio: 0.4, p99Ms: 15 } }
}

/** Memory targets in MB: at most this much resident, and no growth across the load rounds. */
export const memoryTargets: Record<"postgres" | "pglite", number> = { postgres: 250, pglite: 400 }

/** Growth allowed between the first and the last round before memory counts as growing (noise of the heap). */
export const growthAllowance = (firstMb: number): number => Math.max(10, firstMb * 0.05)

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
const thousands = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "-")

/** The baseline of an endpoint: pgbench for funding, raw node:http for the rest. */
export const baselineOf = (endpoint: Endpoint): Subject => (endpoint === "fund" ? "pgbench" : "raw")

/** A progress line for one run, printed as it finishes. */
export const runLine = (sample: Sample): string => {
  const { load } = sample
  const failures = load.non2xx + load.errors + load.timeouts
  return [
    `round ${sample.round + 1}`,
    endpointLabels[sample.endpoint].padEnd(24),
    subjectLabels[sample.subject].padEnd(19),
    `${thousands(load.perSecond).padStart(7)} req/s`,
    `p50 ${fixed(load.p50Ms, 2).padStart(6)} ms`,
    `p99 ${fixed(load.p99Ms, 2).padStart(7)} ms`,
    sample.statements === undefined ? "" : `${fixed(sample.statements.perRequest, 1)} stmts/req`,
    failures === 0
      ? ""
      : `FAILURES ${JSON.stringify({ ...load.statuses, errors: load.errors, timeouts: load.timeouts })}`
  ]
    .filter((cell) => cell !== "")
    .join("  ")
}

const columns = [
  ["endpoint", 24],
  ["server / baseline", 19],
  ["req/s", 8],
  ["p50 ms", 8],
  ["p99 ms", 8],
  ["% of base", 10],
  ["target", 22],
  ["stmts/req", 10],
  ["nested", 7],
  ["db exec ms", 11],
  ["node CPU ms", 12],
  ["db CPU ms", 10],
  ["load CPU ms", 12],
  ["non-2xx/err", 12]
] as const

const line = (cells: ReadonlyArray<string>) =>
  cells
    .map((cell, index) => (index < 2 ? cell.padEnd(columns[index]?.[1] ?? 0) : cell.padStart(columns[index]?.[1] ?? 0)))
    .join(" ")

const verdict = (target: Target | undefined, ratio: number, p99Ms: number): string => {
  if (target === undefined) return ""
  const ratioMet = ratio >= target.ratio
  const p99Met = target.p99Ms === undefined || p99Ms <= target.p99Ms
  const wanted = `>=${(target.ratio * 100).toFixed(0)}%${target.p99Ms === undefined ? "" : `, p99<=${target.p99Ms}`}`
  return `${wanted} ${ratioMet && p99Met ? "met" : "MISSED"}`
}

/**
 * The table: per endpoint, its baseline and the reference server on each storage, with medians over rounds
 * (the ratio is the median of per-round ratios, each against the baseline run next to it) and the failures of
 * every round summed, so that a run with errors shows.
 */
export const table = (samples: ReadonlyArray<Sample>, subjects: ReadonlyArray<Subject>): string => {
  const lines = [
    line(columns.map(([name]) => name)),
    "-".repeat(columns.reduce((width, [, size]) => width + size + 1, -1))
  ]
  for (const endpoint of endpoints) {
    const baseline = baselineOf(endpoint)
    for (const subject of [baseline, ...subjects]) {
      const runs = samples.filter((sample) => sample.endpoint === endpoint && sample.subject === subject)
      if (runs.length === 0) continue
      const ratios = runs.flatMap((run) => {
        const base = samples.find(
          (sample) => sample.endpoint === endpoint && sample.subject === baseline && sample.round === run.round
        )
        return base === undefined ? [] : [run.load.perSecond / base.load.perSecond]
      })
      const ratio = median(ratios)
      const p99 = median(runs.map((run) => run.load.p99Ms))
      const failures = runs.reduce((sum, run) => sum + run.load.non2xx, 0)
      const errors = runs.reduce((sum, run) => sum + run.load.errors + run.load.timeouts, 0)
      const statements = runs.flatMap((run) => (run.statements === undefined ? [] : [run.statements]))
      lines.push(
        line([
          subject === baseline ? endpointLabels[endpoint] : "",
          subjectLabels[subject],
          thousands(median(runs.map((run) => run.load.perSecond))),
          fixed(median(runs.map((run) => run.load.p50Ms)), 2),
          fixed(p99, 2),
          subject === baseline ? "100%" : `${fixed(ratio * 100, 1)}%`,
          subject === baseline ? "" : verdict(targets[endpoint]?.[subject], ratio, p99),
          statements.length === 0 ? "-" : fixed(median(statements.map((counts) => counts.perRequest)), 1),
          statements.length === 0 ? "-" : fixed(median(statements.map((counts) => counts.nestedPerRequest)), 1),
          statements.length === 0 ? "-" : fixed(median(statements.map((counts) => counts.execMsPerRequest)), 3),
          fixed(median(runs.flatMap((run) => (run.serverCpuMs === undefined ? [] : [run.serverCpuMs]))), 3),
          fixed(median(runs.flatMap((run) => (run.databaseCpuMs === undefined ? [] : [run.databaseCpuMs]))), 3),
          fixed(median(runs.flatMap((run) => (run.clientCpuMs === undefined ? [] : [run.clientCpuMs]))), 3),
          `${failures}/${errors}`
        ])
      )
    }
  }
  return lines.join("\n")
}

/** Resident memory of one server: after start, then after each load round. */
export interface MemoryTrace {
  readonly storage: "postgres" | "pglite"
  /** What else the line says about the server, such as its data directory being fresh or existing. */
  readonly note?: string
  readonly afterStartMb: number
  readonly afterRoundMb: ReadonlyArray<number>
}

/** The memory lines with their targets: the peak against the ceiling, and growth from the first to the last round. */
export const memoryReport = (traces: ReadonlyArray<MemoryTrace>): string =>
  traces
    .map((trace) => {
      const ceiling = memoryTargets[trace.storage]
      const all = [trace.afterStartMb, ...trace.afterRoundMb]
      const peak = Math.max(...all)
      const first = trace.afterRoundMb[0] ?? trace.afterStartMb
      const last = trace.afterRoundMb[trace.afterRoundMb.length - 1] ?? first
      const growth = last - first
      const grows = trace.afterRoundMb.length > 1 && growth > growthAllowance(first)
      return [
        `${subjectLabels[trace.storage]}${trace.note === undefined ? "" : ` (${trace.note})`} RSS after start ${fixed(trace.afterStartMb, 0)} MB; after rounds ${trace.afterRoundMb.map((mb) => fixed(mb, 0)).join(", ")} MB`,
        `  <= ${ceiling} MB: ${peak <= ceiling ? "met" : "MISSED"} (peak ${fixed(peak, 0)} MB); no growth across rounds: ${trace.afterRoundMb.length < 2 ? "not judged (one round)" : grows ? `MISSED (+${fixed(growth, 0)} MB)` : `met (${growth >= 0 ? "+" : ""}${fixed(growth, 0)} MB, allowance ${fixed(growthAllowance(first), 0)} MB)`}`
      ].join("\n")
    })
    .join("\n")
