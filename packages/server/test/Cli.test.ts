import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const run = promisify(execFile)
const directories: Array<string> = []
afterAll(() => Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true }))))

describe("payrail CLI", () => {
  it("migrates, creates a platform, lists it and issues a token with chosen permissions", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-cli-"))
    directories.push(dataDir)
    // Without DATABASE_URL the CLI works on the embedded store under PAYRAIL_DATA_DIR.
    const { DATABASE_URL: _unused, ...inherited } = process.env
    const env = { ...inherited, PAYRAIL_DATA_DIR: dataDir, LOG_LEVEL: "warning" }
    const payrail = (...args: Array<string>) => run(process.execPath, ["--import", "tsx", bin, ...args], { env })

    await payrail("migrate")
    const created = await payrail("platform", "create", "--name", "Acme Pay", "--environment", "PRODUCTION")
    const [platformId = "", secretLine] = created.stdout.trim().split("\n")
    expect(platformId).toMatch(/^Platform:[0-9a-f-]{36}$/)
    expect(secretLine).toMatch(/^webhook secret\s+whsec_[A-Za-z0-9+/]{43}=$/)
    expect((await payrail("platform", "list")).stdout).toContain(`${platformId}\tPRODUCTION\tAcme Pay`)

    const token = await payrail("token", "create", "--platform-id", platformId, "--permission", "VIEW")
    expect(token.stdout).toMatch(/client id\s+pk_[A-Za-z0-9_-]{24}/)
    expect(token.stdout).toMatch(/client secret\s+sk_live_[A-Za-z0-9_-]{43}/)

    const unknown = await payrail(
      "token",
      "create",
      "--platform-id",
      "Platform:00000000-0000-4000-8000-000000000000"
    ).catch((error: { code: number; stderr: string; stdout: string }) => error)
    expect(unknown).toMatchObject({ code: 1 })
  }, 300_000)
})
