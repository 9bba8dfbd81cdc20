import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "./ServerProcess.js"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const api = "/2025-10-13"
let dataDir: string
let server: RunningServer

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "payrail-customers-import-"))
  server = await startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory" })
}, 120_000)
afterAll(async () => {
  await server?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const header =
  "umaAddress,platformCustomerId,customerType,fullName,birthDate,email,businessLegalName,addressLine1,city,state," +
  "postalCode,country"

/** `rows` customers; the rows in `bad` have a birth date in the wrong format. */
const csv = (rows: number, bad: ReadonlySet<number>) => {
  const lines = [header]
  for (let row = 1; row <= rows; row++) {
    const id = `cli-import-${row}`
    lines.push(
      `$${id}@cli.example.com,${id},INDIVIDUAL,Import Person ${row},${bad.has(row) ? "02/01/1990" : "1990-02-01"},` +
        `${id}@example.com,,"${row} Main St",San Francisco,CA,94105,US`
    )
  }
  return `${lines.join("\n")}\n`
}

/** Runs `payrail customers import` against the server (output piped, as in CI). */
const runImport = (file: string) => {
  const clientId = /client id\s+(\S+)/.exec(server.output())?.[1] ?? ""
  const clientSecret = /client secret\s+(\S+)/.exec(server.output())?.[1] ?? ""
  const { DATABASE_URL: _unused, ...inherited } = process.env
  return new Promise<{ code: number; stdout: string; stderr: string; secret: string }>((resolve) =>
    execFile(
      process.execPath,
      [
        "--import",
        "tsx",
        bin,
        "customers",
        "import",
        file,
        "--api",
        `${server.baseUrl}${api}`,
        "--poll-interval-ms",
        "100"
      ],
      {
        env: { ...inherited, PAYRAIL_CLIENT_ID: clientId, PAYRAIL_CLIENT_SECRET: clientSecret, LOG_LEVEL: "Warning" },
        timeout: 180_000
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
          stdout,
          stderr,
          secret: clientSecret
        })
    )
  )
}

describe("payrail customers import", () => {
  it("uploads the file, follows the job with progress and prints the failed rows by line and column", async () => {
    const file = join(dataDir, "customers.csv")
    await writeFile(file, csv(450, new Set([7, 301])))
    const run = await runImport(file)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/import job Job:[0-9a-f-]{36}/)
    expect(run.stdout).toMatch(/Import Job:[0-9a-f-]{36} COMPLETED/)
    // The two bad rows: the header is line 1, so row 7 is line 8 and row 301 line 302.
    expect(run.stdout).toMatch(/^line 8 {2}birthDate {2}INVALID_INPUT/m)
    expect(run.stdout).toMatch(/^line 302 {2}birthDate {2}INVALID_INPUT/m)
    // Progress on stderr, as plain lines when it is not a terminal, ending with the summary.
    expect(run.stderr).toContain("rows: 0/450")
    expect(run.stderr).toMatch(/rows: 448 customers created, 2 rows failed, of 450 in \d+\.\d s/)
    expect(run.stderr).not.toContain("\u001b")
    expect(`${run.stdout}${run.stderr}`).not.toContain(run.secret)
    const listed = await fetch(`${server.baseUrl}${api}/customers?platformCustomerId=cli-import-450`, {
      headers: { authorization: server.auth }
    })
    expect(((await listed.json()) as { data: ReadonlyArray<unknown> }).data).toHaveLength(1)
  }, 180_000)

  it("fails with the server's reason when the file's header is wrong, and exits non-zero", async () => {
    const file = join(dataDir, "broken.csv")
    await writeFile(file, "platformCustomerId,colour\nx,blue\n")
    const run = await runImport(file)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/400/)
    expect(run.stderr).toMatch(/colour|customerType/)
  }, 180_000)
})
