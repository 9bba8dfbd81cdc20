import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { defer, envNumber, runMain, sleep } from "../http/lifecycle.js"
import { rssMb } from "../http/procfs.js"
import { type ReferenceServer, startReference } from "../http/servers.js"

// Bulk customer import on the reference server on PostgreSQL: a generated CSV of BENCH_BULK_ROWS rows (default
// 100,000; one in BENCH_BULK_BAD_EVERY, default 1,000, has an invalid birthDate) uploaded as one multipart
// POST /customers/bulk/csv, then imported by the server's job worker in batches of 200. With BENCH_BULK_RESTART=1
// (the default) the server is killed (SIGKILL) once a third of the rows are processed and a second server on the same
// database finishes the job, which must create every valid customer exactly once. BENCH_BULK_SECONDS (default 0:
// until the job ends) bounds the import's wait: the restart comes at half of it at the latest, and the checks then
// apply to the rows processed so far (batches run in file order, so they are the file's first rows).
// Prints the upload's and the import's rows/s and each server's resident memory (VmHWM peak of /proc/<pid>/status,
// with VmRSS sampled every 20 ms): it stays bounded, it does not grow with the file.
// Environment: BENCH_DATABASE_URL, else DATABASE_URL (a PostgreSQL server on which a throw-away database is created
// with psql and dropped at the end).

const rows = Math.round(envNumber("BENCH_BULK_ROWS", 100_000))
const badEvery = Math.round(envNumber("BENCH_BULK_BAD_EVERY", 1_000))
const restart = process.env["BENCH_BULK_RESTART"] !== "0"
const budgetSeconds = Number(process.env["BENCH_BULK_SECONDS"] ?? "0")
const serverUrl = process.env["BENCH_DATABASE_URL"] ?? process.env["DATABASE_URL"] ?? ""
const api = "/2025-10-13"

const peakMb = (pid: number): number => {
  const line = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return Number(line?.[1] ?? "0") / 1024
}

/** The CSV file, built in 1,000-row parts (the client's memory is not what is measured). */
const isBad = (row: number) => badEvery > 0 && (row + 7) % badEvery === 0

/** How many of the file's first `processed` rows are bad. */
const badAmong = (processed: number) => {
  let bad = 0
  for (let row = 1; row <= processed; row++) if (isBad(row)) bad += 1
  return bad
}

const csvFile = (): { readonly blob: Blob; readonly valid: number } => {
  const parts: Array<string> = [
    "umaAddress,platformCustomerId,customerType,fullName,birthDate,email,businessLegalName,addressLine1,city,state," +
      "postalCode,country\n"
  ]
  let valid = 0
  let part = ""
  for (let row = 1; row <= rows; row++) {
    const id = `bench-${process.pid}-${row}`
    const bad = isBad(row)
    if (!bad) valid += 1
    part +=
      row % 10 === 0
        ? `$${id}@bench.example.com,${id},BUSINESS,,,,"Bench ""${row}"" Ltd",${row} Commerce Way,Austin,TX,78701,US\n`
        : `$${id}@bench.example.com,${id},INDIVIDUAL,Bench Person ${row},${bad ? "01/02/1990" : "1990-02-01"},` +
          `${id}@example.com,,"${row} Main St, Apt 2",San Francisco,CA,94105,US\n`
    if (row % 1_000 === 0) {
      parts.push(part)
      part = ""
    }
  }
  parts.push(part)
  return { blob: new Blob(parts, { type: "text/csv" }), valid }
}

interface Job {
  readonly status: string
  readonly progress: {
    readonly total: number
    readonly processed: number
    readonly successful: number
    readonly failed: number
  }
}

/** Samples the server's resident memory every 20 ms until stopped; answers the highest sample. */
const sampler = (server: ReferenceServer) => {
  let highest = 0
  let running = true
  const done = (async () => {
    while (running && server.alive()) {
      try {
        highest = Math.max(highest, rssMb(server.pid))
      } catch {
        return
      }
      await sleep(20)
    }
  })()
  return async () => {
    running = false
    await done
    return highest
  }
}

const main = async () => {
  if (serverUrl === "") throw new Error("set BENCH_DATABASE_URL or DATABASE_URL to a PostgreSQL server")
  const name = `payrail_bench_bulk_${process.pid}`
  execFileSync("psql", [serverUrl, "-qc", `CREATE DATABASE ${name}`])
  defer("the bench database", async () => {
    execFileSync("psql", [serverUrl, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`])
  })
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  // Shared by both servers, so that the second one serves the same sandbox platform.
  const dataDir = await mkdtemp(path.join(tmpdir(), "payrail-bench-bulk-"))
  const start = () =>
    startReference({
      storage: "postgres",
      databaseUrl: url.toString(),
      dataDir,
      // A killed worker's batch is claimed again once its lease runs out.
      env: { PAYRAIL_REQUEST_TIMEOUT_SECONDS: "600", PAYRAIL_JOB_LEASE_SECONDS: "30" }
    })
  let server = await start()
  defer(server.label, () => server.stop())

  const { blob, valid } = csvFile()
  const megabytes = blob.size / (1024 * 1024)
  const form = new FormData()
  form.set("file", blob, "customers.csv")
  const baselineMb = rssMb(server.pid)
  let sample = sampler(server)
  const uploadStarted = performance.now()
  const accepted = await fetch(`${server.baseUrl}${api}/customers/bulk/csv`, {
    method: "POST",
    headers: { authorization: server.authorization },
    body: form
  })
  const uploadSeconds = (performance.now() - uploadStarted) / 1000
  const body = (await accepted.json()) as { jobId: string; status: string }
  if (accepted.status !== 202) throw new Error(`the upload answered ${accepted.status}: ${JSON.stringify(body)}`)
  console.log(
    `upload: ${rows} rows, ${megabytes.toFixed(1)} MB in ${uploadSeconds.toFixed(2)} s: ` +
      `${Math.round(rows / uploadSeconds)} rows/s (${(megabytes / uploadSeconds).toFixed(1)} MB/s), answered 202`
  )

  const job = async (): Promise<Job> => {
    const response = await fetch(`${server.baseUrl}${api}/customers/bulk/jobs/${body.jobId}?errorsLimit=1`, {
      headers: { authorization: server.authorization }
    })
    return (await response.json()) as Job
  }
  const importStarted = performance.now()
  const peaks: Array<string> = []
  let restarted = !restart
  const elapsed = () => (performance.now() - importStarted) / 1000
  const phases: Array<string> = []
  let phaseStarted = importStarted
  let phaseProcessed = 0
  const endPhase = (label: string, processed: number) => {
    const seconds = (performance.now() - phaseStarted) / 1000
    phases.push(
      `${label}: ${processed - phaseProcessed} rows in ${seconds.toFixed(0)} s (${Math.round((processed - phaseProcessed) / seconds)} rows/s)`
    )
  }
  let current = await job()
  while (
    (current.status === "PENDING" || current.status === "PROCESSING") &&
    (budgetSeconds <= 0 || elapsed() < budgetSeconds)
  ) {
    if (
      !restarted &&
      (current.progress.processed >= rows / 3 || (budgetSeconds > 0 && elapsed() >= budgetSeconds / 2))
    ) {
      endPhase("first server", current.progress.processed)
      restarted = true
      const sampled = await sample()
      peaks.push(`first server: peak ${peakMb(server.pid).toFixed(0)} MB (sampled ${sampled.toFixed(0)} MB)`)
      process.kill(server.pid, "SIGKILL")
      while (server.alive()) await sleep(20)
      console.log(`killed the server (SIGKILL) at ${current.progress.processed} processed rows; starting another`)
      server = await start()
      sample = sampler(server)
      phaseStarted = performance.now()
      phaseProcessed = (await job()).progress.processed
    }
    await sleep(250)
    current = await job()
  }
  const importSeconds = (performance.now() - importStarted) / 1000
  endPhase(restart ? "second server" : "the server", current.progress.processed)
  const sampled = await sample()
  peaks.push(
    `${restart ? "second" : "the"} server: peak ${peakMb(server.pid).toFixed(0)} MB (sampled ${sampled.toFixed(0)} MB)`
  )

  const customers = await fetch(`${server.baseUrl}${api}/customers?limit=1`, {
    headers: { authorization: server.authorization }
  })
  const count = ((await customers.json()) as { totalCount?: number }).totalCount ?? -1
  console.log(
    `import: ${current.progress.processed} rows in ${importSeconds.toFixed(1)} s: ` +
      `${Math.round(current.progress.processed / importSeconds)} rows/s; status ${current.status}, ` +
      `${current.progress.successful} customers created, ${current.progress.failed} rows failed, ${count} customers ` +
      `on the platform`
  )
  console.log(`by server: ${phases.join("; ")}`)
  console.log(`server resident memory: ${baselineMb.toFixed(0)} MB before the upload; ${peaks.join("; ")}`)
  const processed = current.progress.processed
  const finished = current.status === "COMPLETED"
  const exact =
    count === current.progress.successful &&
    current.progress.failed === badAmong(processed) &&
    current.progress.successful === processed - badAmong(processed) &&
    (!finished || current.progress.successful === valid)
  console.log(
    exact
      ? `checked: each of the ${processed} processed rows counted once, every valid one a customer exactly once` +
          (finished ? " (the whole file)" : ` (the job goes on: ${rows - processed} rows left at the bench's deadline)`)
      : "MISMATCH: the import did not create every valid customer exactly once"
  )
  if (!exact) process.exitCode = 1
}

runMain(main)
