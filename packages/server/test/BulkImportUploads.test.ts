import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startServer } from "./ServerProcess.js"

const base = "/2025-10-13"
const mib = 1024 * 1024

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

const header =
  "umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n"
const row = (id: string) =>
  `$${id}@uma.example.com,${id},INDIVIDUAL,Ada Lovelace,1990-01-15,1 Main St,Austin,TX,78701,US\n`

/** A CSV file of at least `bytes` bytes. */
const csvOf = (bytes: number, prefix: string) => {
  const rows = [header]
  let size = header.length
  for (let index = 0; size < bytes; index++) {
    const line = row(`${prefix}-${index}`)
    rows.push(line)
    size += line.length
  }
  return rows.join("")
}

it("refuses a bulk import over its own limit on the Node server, and runs an accepted one's job to the end", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-bulk-"))
  temporaryDirectories.push(dataDir)
  const server = await startServer({
    PAYRAIL_DATA_DIR: dataDir,
    PAYRAIL_STORAGE: "memory",
    PAYRAIL_BULK_IMPORT_MAX_BYTES: String(2 * mib)
  })
  try {
    const headers = { authorization: server.auth }
    const upload = (text: string) => {
      const form = new FormData()
      form.set("file", new Blob([text], { type: "text/csv" }), "customers.csv")
      return fetch(`${server.baseUrl}${base}/customers/bulk/csv`, { method: "POST", headers, body: form })
    }
    // A large import running does not keep other uploads waiting (the memory store runs one unit of work at a time).
    const large = await upload(csvOf(1.5 * mib, "large"))
    expect(large.status).toBe(202)
    const small = await upload(`${header}${row("small-1")}${row("small-2")}`)
    expect(small.status).toBe(202)
    const { jobId } = (await small.json()) as { jobId: string }
    let job: { status: string; progress: { successful: number } } = { status: "PENDING", progress: { successful: 0 } }
    for (let attempt = 0; attempt < 300 && job.status !== "COMPLETED"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      job = await (await fetch(`${server.baseUrl}${base}/customers/bulk/jobs/${jobId}`, { headers })).json()
    }
    expect(job).toMatchObject({ status: "COMPLETED", progress: { successful: 2 } })

    const refused = await upload(csvOf(2 * mib + 1, "big"))
    expect(refused.status).toBe(413)
    expect(await refused.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)
  } finally {
    server.kill()
  }
}, 120_000)
