import { execFile } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** The documents that tell a new user which commands to type. */
const documents = [
  "README.md",
  ...readdirSync(join(root, "docs", "operating")).map((name) => join("docs", "operating", name)),
  ...readdirSync(join(root, "docs", "guides")).map((name) => join("docs", "guides", name)),
  ...readdirSync(join(root, "packages")).map((name) => join("packages", name, "README.md"))
].filter((document) => {
  try {
    readFileSync(join(root, document))
    return true
  } catch {
    return false
  }
})

/** Commands in `sh` blocks and in inline code. */
const commandsOf = (text: string): Array<string> => {
  const inBlocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => (match[1] ?? "").split("\n"))
  const inline = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? "")
  return [...inBlocks, ...inline].map((line) => line.replace(/#.*$/, "").trim()).filter((line) => line !== "")
}

const npm = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile("npm", [...args], { cwd: root, env, timeout: 300_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })

describe("the commands the README documents", () => {
  it("need no pnpm on the PATH: npm scripts, or pnpm through corepack", () => {
    const bare = documents.flatMap((document) =>
      commandsOf(readFileSync(join(root, document), "utf8"))
        .filter((command) => /(^|[;&|(]\s*|=\S+\s+)pnpm\s/.test(command) && !/corepack pnpm\s/.test(command))
        .map((command) => `${document}: ${command}`)
    )
    expect(bare).toEqual([])
  })

  it("run the CLI as `npm run payrail -- …`, installing dependencies first", async () => {
    const help = await npm(["run", "-s", "payrail", "--", "--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("USAGE")
    for (const command of ["serve", "migrate", "platform", "token"]) expect(help.stdout).toContain(command)
  }, 300_000)

  it("run benchmarks as `npm run bench -- <name>`, and name the available ones", async () => {
    const unknown = await npm(["run", "-s", "bench", "--", "no-such-bench"])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/no benchmark named no-such-bench; available: .*ledger/)
  }, 300_000)

  it("say plainly, at the end of `npm test`, which tests were skipped and why", async () => {
    const { DATABASE_URL: _unused, ...withoutDatabase } = process.env
    const result = await npm(["test", "--", "packages/storage-postgres/test/Postgres.test.ts"], withoutDatabase)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(
      /DATABASE_URL is not set: \d+ tests that need PostgreSQL were skipped\. To run them, set/
    )
    expect(result.stdout.trimEnd().split("\n").at(-1)).toContain("DATABASE_URL is not set")
  }, 300_000)
})
