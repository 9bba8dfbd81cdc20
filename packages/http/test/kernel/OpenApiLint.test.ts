import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

const run = promisify(execFile)

// The Redocly CLI is a devDependency: this check needs no network beyond the install.
const redoclyBin = async (): Promise<string> => {
  const manifestPath = createRequire(import.meta.url).resolve("@redocly/cli/package.json")
  const manifest: { readonly bin: Record<string, string> } = JSON.parse(await readFile(manifestPath, "utf8"))
  const bin = manifest.bin["redocly"]
  if (bin === undefined) throw new Error("@redocly/cli has no redocly bin")
  return join(dirname(manifestPath), bin)
}

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly severity: string; readonly message: string }>
}

const referenceMandated =
  /`\/2025-10-13\/customers\/external-accounts\/\{accountId\}` and `\/2025-10-13\/customers\/\{customerId\}\/(kyc-link|verify-email|verify-phone)`/

let api: Harness
let directory: string

beforeAll(async () => {
  api = await makeHarness()
  directory = await mkdtemp(join(tmpdir(), "payrail-openapi-"))
})
afterAll(async () => {
  await api.dispose()
  await rm(directory, { recursive: true, force: true })
})

describe("the served OpenAPI document", () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const path = join(directory, "openapi.json")
    await writeFile(path, await (await api.request("/openapi.json", { auth: null })).text())
    const { stdout } = await run(
      process.execPath,
      [await redoclyBin(), "lint", "--extends=recommended", "--format=json", path],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        maxBuffer: 16 * 1024 * 1024
      }
    ).catch((error: { readonly stdout?: string }) => ({ stdout: error.stdout ?? "" }))
    const report: LintReport = JSON.parse(stdout)
    // The reference's paths put actions under `/customers/{customerId}/…` beside `/customers/external-accounts/{id}`:
    // ambiguous to the linter, never to the router (a literal segment wins, and the methods differ).
    const problems = report.problems.filter(
      ({ message, ruleId }) => !(ruleId === "no-ambiguous-paths" && referenceMandated.test(message))
    )
    expect(problems.map(({ message, ruleId, severity }) => `${severity} ${ruleId}: ${message}`)).toEqual([])
    expect(report.totals.errors).toBe(0)
  }, 120_000)

  it("names a relative server, so it holds under any mount prefix", async () => {
    const document = await (await api.request("/openapi.json", { auth: null })).json()
    expect(document.servers).toEqual([expect.objectContaining({ url: "." })])
    expect(new URL(document.servers[0].url, "https://host.example/payments/openapi.json").pathname).toBe("/payments/")
  })
})
