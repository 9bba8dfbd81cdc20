import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { defer, envNumber, runMain, sleep } from "../http/lifecycle.js"
import { rssMb } from "../http/procfs.js"
import { startReference } from "../http/servers.js"

// Document uploads on the reference server on PostgreSQL: BENCH_UPLOADS concurrent uploads (default 50) of
// BENCH_UPLOAD_MB-MB files (default 10), each a multipart POST /documents streamed by the server into 256 KiB chunks.
// Prints the wall time, the throughput in MB/s and the server's peak resident memory (VmHWM of
// /proc/<pid>/status, with VmRSS sampled every 20 ms beside it); the target is under 300 MB.
// Environment: BENCH_DATABASE_URL, else DATABASE_URL (a PostgreSQL server on which a throw-away database is created
// with psql and dropped at the end).

const uploads = Math.round(envNumber("BENCH_UPLOADS", 50))
const megabytes = envNumber("BENCH_UPLOAD_MB", 10)
const serverUrl = process.env["BENCH_DATABASE_URL"] ?? process.env["DATABASE_URL"] ?? ""

const peakKb = (pid: number): number => {
  const line = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return Number(line?.[1] ?? "0")
}

const main = async () => {
  if (serverUrl === "") throw new Error("set BENCH_DATABASE_URL or DATABASE_URL to a PostgreSQL server")
  const name = `payrail_bench_uploads_${process.pid}`
  execFileSync("psql", [serverUrl, "-qc", `CREATE DATABASE ${name}`])
  defer("the bench database", async () => {
    execFileSync("psql", [serverUrl, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`])
  })
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const fileBytes = Math.round(megabytes * 1024 * 1024)
  const server = await startReference({
    storage: "postgres",
    databaseUrl: url.toString(),
    // Long enough for 50 uploads sharing one loopback and one CPU.
    env: {
      PAYRAIL_HEADERS_TIMEOUT_SECONDS: "600",
      PAYRAIL_REQUEST_TIMEOUT_SECONDS: "600",
      PAYRAIL_DOCUMENT_MAX_BYTES: String(fileBytes)
    }
  })
  defer(server.label, server.stop)
  const headers = { authorization: server.authorization }
  const customer = await fetch(`${server.baseUrl}/2025-10-13/customers`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({
      customerType: "INDIVIDUAL",
      platformCustomerId: `bench-${process.pid}`,
      fullName: "Bench Uploader",
      birthDate: "1990-01-01",
      nationality: "GB",
      region: "US"
    })
  })
  if (customer.status !== 201) throw new Error(`creating the customer answered ${customer.status}`)
  const holder = ((await customer.json()) as { id: string }).id

  // One 10 MB JPEG-signed file, shared by every upload (the client's memory is not what is measured).
  const file = new Uint8Array(fileBytes)
  for (let i = 0; i < file.length; i++) file[i] = (i * 31) & 0xff
  file.set([0xff, 0xd8, 0xff, 0xe0])
  const blob = new Blob([file], { type: "image/jpeg" })

  const baselineMb = rssMb(server.pid)
  let sampledMb = baselineMb
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      sampledMb = Math.max(sampledMb, rssMb(server.pid))
      await sleep(20)
    }
  })()
  const started = performance.now()
  const statuses = await Promise.all(
    Array.from({ length: uploads }, async (_, index) => {
      const form = new FormData()
      form.set("documentHolder", holder)
      form.set("documentType", "PASSPORT")
      form.set("country", "GB")
      form.set("file", blob, `scan-${index}.jpg`)
      const response = await fetch(`${server.baseUrl}/2025-10-13/documents`, { method: "POST", headers, body: form })
      await response.arrayBuffer()
      return response.status
    })
  )
  const seconds = (performance.now() - started) / 1000
  sampling = false
  await sampler
  const peakMb = peakKb(server.pid) / 1024
  const created = statuses.filter((status) => status === 201).length
  const totalMb = (uploads * fileBytes) / (1024 * 1024)
  console.log(`uploads: ${created}/${uploads} answered 201 (statuses: ${[...new Set(statuses)].join(", ")})`)
  console.log(`wall time: ${seconds.toFixed(2)} s for ${totalMb.toFixed(0)} MB: ${(totalMb / seconds).toFixed(1)} MB/s`)
  console.log(
    `server resident memory: ${baselineMb.toFixed(0)} MB before, peak ${peakMb.toFixed(0)} MB (VmHWM; ` +
      `sampled VmRSS peak ${sampledMb.toFixed(0)} MB); target under 300 MB: ${peakMb < 300 ? "met" : "MISSED"}`
  )
  if (created !== uploads) process.exitCode = 1
}

runMain(main)
