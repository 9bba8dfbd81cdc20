import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Banner from "../src/Banner.js"
import { hasAnsi, linesOf, runCli } from "./CliProcess.js"
import { startServer } from "./ServerProcess.js"

// A stack frame or a source location: `at fn (/path/File.ts:12:3)`, `/packages/core/src/…`.
const internals = /\bat .*:\d+:\d+|\/(src|packages|node_modules)\/|_tag/

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
let dataDir = ""
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "payrail-cli-output-"))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe("payrail CLI output", () => {
  it("reports a missing option in one readable line with the command's usage, and exits non-zero", async () => {
    const result = await runCli({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir }, "platform", "create")
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(linesOf(result.stderr)).toEqual([
      "payrail platform create: Expected to find option: '--name'. " +
        "Usage: payrail platform create --name text [--environment SANDBOX | PRODUCTION]"
    ])
  }, 60_000)

  it("reports an invalid choice and an unknown command the same way", async () => {
    const choice = await runCli(
      { PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir },
      "platform",
      "create",
      "--name",
      "x",
      "--environment",
      "LIVE"
    )
    expect(choice.code).toBe(1)
    expect(linesOf(choice.stderr)).toEqual([
      expect.stringMatching(
        /^payrail platform create: Expected one of the following cases: SANDBOX, PRODUCTION\. Usage: /
      )
    ])
    const unknown = await runCli({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir }, "platfrom")
    expect(unknown.code).toBe(1)
    expect(linesOf(unknown.stderr)).toEqual([
      expect.stringMatching(/^payrail: Invalid subcommand .*Usage: payrail <command>; see payrail --help$/)
    ])
  }, 60_000)

  it("prints help without colour codes when piped", async () => {
    const help = await runCli({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir }, "--help")
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("USAGE")
    expect(hasAnsi(help.stdout)).toBe(false)
  }, 60_000)

  it("keeps colours for a terminal, and drops them there too with NO_COLOR", async () => {
    // util-linux's script(1) runs the CLI on a pseudo-terminal, as a person's shell would.
    const onTerminal = (env: string) =>
      new Promise<string>((resolve, reject) =>
        execFile(
          "script",
          ["-qec", `${env} "${process.execPath}" --import tsx "${bin}" --help`, "/dev/null"],
          { env: { ...process.env, PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir } },
          (error, stdout) => (error === null ? resolve(stdout) : reject(error))
        )
      )
    expect(hasAnsi(await onTerminal(""))).toBe(true)
    const noColor = await onTerminal("NO_COLOR=1")
    expect(noColor).toContain("USAGE")
    expect(hasAnsi(noColor)).toBe(false)
  }, 60_000)

  it("reports a failed command in one line, without stack or source paths, logging the cause only at debug", async () => {
    const args = ["token", "create", "--platform-id", "Platform:00000000-0000-4000-8000-000000000000"]
    const result = await runCli({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir }, ...args)
    expect(result.code).toBe(1)
    expect(linesOf(result.stderr)).toEqual([
      "payrail token create: Platform not found (platformId Platform:00000000-0000-4000-8000-000000000000)"
    ])
    expect(result.stderr).not.toMatch(internals)
    expect(hasAnsi(result.stderr)).toBe(false)

    const debug = await runCli({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir, LOG_LEVEL: "debug" }, ...args)
    expect(debug.stderr).toContain("the command failed")
    expect(linesOf(debug.stderr).filter((line) => line.startsWith("payrail "))).toEqual(linesOf(result.stderr))
  }, 120_000)

  it("reports invalid configuration in one line naming the variable", async () => {
    const result = await runCli({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir, PORT: "eighty" }, "migrate")
    expect(result.code).toBe(1)
    const lines = linesOf(result.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^payrail migrate: invalid configuration: .*PORT/)
    expect(lines[0]).not.toMatch(internals)
  }, 60_000)
})

describe("start-up banner", () => {
  it("aligns every labelled value in one column, as the server prints it", async () => {
    const server = await startServer({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir })
    try {
      const banner = server.output().split("\n")
      const labelled = banner.filter((line) => /^ {2,4}\S.*\S {2,}\S/.test(line) && !line.startsWith("  Try:"))
      expect(labelled.map((line) => line.slice(0, Banner.valueColumn).trim())).toEqual([
        "API base URL",
        "API reference",
        "Sandbox console",
        "Storage",
        "Wallet signer",
        "Sandbox platform",
        "client id",
        "client secret",
        "webhook secret",
        "kept in"
      ])
      expect(banner.find((line) => line.includes("webhook secret"))).toMatch(/ whsec_[A-Za-z0-9+/]{43}= /)
      // The wallet signer's public key, for clients to pin (never the private key).
      expect(banner.find((line) => line.includes("Wallet signer"))).toMatch(/ 04[0-9a-f]{128}$/)
      for (const line of labelled) {
        expect(line.charAt(Banner.valueColumn - 1)).toBe(" ")
        expect(line.charAt(Banner.valueColumn)).not.toBe(" ")
      }
      expect(hasAnsi(server.output())).toBe(false)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 180_000)
})
