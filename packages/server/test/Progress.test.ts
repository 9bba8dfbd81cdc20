import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { all as migrations } from "@payrail/storage-postgres/migrations/index"
import { linesOf, runCli } from "./CliProcess.js"
import * as Progress from "../src/Progress.js"

const directories: Array<string> = []
afterAll(() => Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true }))))

const capture = (isTerminal: boolean) => {
  let text = ""
  return { output: { isTerminal, write: (chunk: string) => void (text += chunk) }, text: () => text }
}

describe("progress of long CLI work", () => {
  it("redraws one line on a terminal and writes plain lines elsewhere", async () => {
    const terminal = capture(true)
    const piped = capture(false)
    for (const { output } of [terminal, piped]) {
      await Effect.runPromise(
        Effect.gen(function* () {
          const progress = yield* Progress.make("days", 20, output)
          for (let day = 1; day <= 20; day++) yield* progress.advance(1, `day ${day}`)
          yield* progress.finish("20 days")
        })
      )
    }
    expect(terminal.text()).toContain("\r")
    expect(terminal.text()).toContain(`days [${"#".repeat(24)}] 20/20 day 20`)
    expect(piped.text()).not.toContain("\r")
    expect(piped.text()).not.toContain("\u001b")
    const lines = linesOf(piped.text())
    // A start line, one about every tenth of the way, and the summary.
    expect(lines[0]).toBe("days: 0/20")
    expect(lines).toContain("days: 2/20 (day 2)")
    expect(lines.length).toBeLessThanOrEqual(12)
    expect(lines.at(-1)).toMatch(/^days: 20 days in [\d.]+ s$/)
  })

  it("payrail migrate reports each migration it applies with its timing, and nothing once up to date", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-migrate-"))
    directories.push(dataDir)
    const first = await runCli({ PAYRAIL_DATA_DIR: dataDir }, "migrate")
    expect(first.code, first.stderr).toBe(0)
    const count = Object.keys(migrations).length
    const applied = linesOf(first.stderr).filter((line) => line.startsWith("migrations: "))
    for (const [index, name] of Object.keys(migrations).entries()) {
      expect(applied).toContainEqual(
        expect.stringMatching(new RegExp(`^migrations: ${index + 1}/${count} \\(${name} applied in \\d+ ms\\)$`))
      )
    }
    expect(applied.at(-1)).toMatch(new RegExp(`^migrations: ${count} applied in [\\d.]+ s$`))
    const again = await runCli({ PAYRAIL_DATA_DIR: dataDir }, "migrate")
    expect(again.code).toBe(0)
    expect(again.stderr).not.toContain("migrations:")
  }, 120_000)
})
