import { execFile } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "../../../packages/server/test/ServerProcess.js"
import { createTemporaryDatabase } from "../../../packages/server/test/TemporaryDatabase.js"
import { allBlocks, matchesPromise, type ReadmeBlock } from "./ReadmeBlocks.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const blocks = allBlocks(root)
const databaseUrl = process.env["DATABASE_URL"] ?? ""
const run = `readme-examples-${randomUUID().slice(0, 8)}`
// Blocks run in a temporary directory (what they write stays there), so tsx is named by its path.
const tsx = pathToFileURL(join(root, "node_modules", "tsx", "dist", "loader.mjs")).href

const nameOf = (block: ReadmeBlock) => `${block.readme} block ${block.index} (line ${block.firstLine - 1})`

// Each block is written into its package (under the git-ignored dist/), so it resolves its imports as code in that
// package would: its own name, its dependencies and devDependencies.
const fileOf = (block: ReadmeBlock) => join(root, block.packageDir, "dist", run, `block-${block.index}.ts`)

const checked = blocks.filter((block) => block.marker.kind !== "not-run")
const diagnostics = new Map<string, Array<string>>()
let server: RunningServer | undefined
const cleanups: Array<() => Promise<unknown>> = []

const execute = (file: string, args: ReadonlyArray<string>, options: { cwd: string; env: NodeJS.ProcessEnv }) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, [...args], { ...options, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })

/** Typechecks every block at once, with the settings every package shares (tsconfig.base.json) and Node's types. */
const typecheck = async () => {
  const tsconfig = join(root, "examples", "readme", "dist", run, "tsconfig.json")
  await mkdir(dirname(tsconfig), { recursive: true })
  cleanups.push(() => rm(dirname(tsconfig), { recursive: true, force: true }))
  await writeFile(
    tsconfig,
    JSON.stringify({
      extends: relative(dirname(tsconfig), join(root, "tsconfig.base.json")),
      compilerOptions: {
        noEmit: true,
        composite: false,
        incremental: false,
        declaration: false,
        declarationMap: false,
        sourceMap: false,
        types: ["node"]
      },
      files: checked.map(fileOf)
    })
  )
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc")
  const result = await execute(process.execPath, [tsc, "-p", tsconfig, "--pretty", "false"], {
    cwd: root,
    env: process.env
  })
  // `path(line,col): error TS…: message`; only diagnostics in a block count (its imports are checked by their packages).
  for (const line of result.stdout.split("\n")) {
    const match = /^(.*?)\((\d+),(\d+)\): (error .*)$/.exec(line.trim())
    const block =
      match === null ? undefined : checked.find((candidate) => fileOf(candidate) === join(root, match[1] ?? ""))
    if (match === null || block === undefined) continue
    const readmeLine = block.firstLine + Number(match[2]) - 1
    diagnostics.set(nameOf(block), [
      ...(diagnostics.get(nameOf(block)) ?? []),
      `${block.readme}:${readmeLine}: ${match[4]}`
    ])
  }
  return result
}

beforeAll(async () => {
  for (const block of checked) {
    await mkdir(dirname(fileOf(block)), { recursive: true })
    await writeFile(fileOf(block), `${block.code}\n`)
    cleanups.push(() => rm(dirname(fileOf(block)), { recursive: true, force: true }))
  }
  const result = await typecheck()
  if (result.code !== 0 && diagnostics.size === 0)
    throw new Error(`tsc failed outside the examples:\n${result.stdout}${result.stderr}`)
  if (checked.some((block) => block.marker.kind === "needs-server")) {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-readme-server-"))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    server = await startServer({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir })
  }
}, 600_000)

afterAll(async () => {
  if (server !== undefined) await server.stop()
  await Promise.all(cleanups.map((cleanup) => cleanup()))
})

/** The environment a block runs in: a running server's URL and credentials when it needs them. */
const environmentFor = async (block: ReadmeBlock): Promise<NodeJS.ProcessEnv> => {
  const { DATABASE_URL: _unused, ...inherited } = process.env
  if (block.marker.kind === "needs-server" && server !== undefined) {
    const [clientId, clientSecret] = Buffer.from(server.auth.replace(/^Basic /, ""), "base64")
      .toString()
      .split(":")
    return {
      ...inherited,
      PAYRAIL_URL: server.baseUrl,
      PAYRAIL_CLIENT_ID: clientId,
      PAYRAIL_CLIENT_SECRET: clientSecret
    }
  }
  if (block.marker.kind === "needs-database") {
    const database = await createTemporaryDatabase(databaseUrl, "readme")
    cleanups.push(database.drop)
    return { ...inherited, DATABASE_URL: database.url }
  }
  return inherited
}

describe("package README examples", () => {
  it("finds the examples of every package README", () => {
    expect(blocks.length).toBeGreaterThan(10)
  })

  for (const block of blocks) {
    const name = nameOf(block)
    const { marker } = block
    if (marker.kind === "not-run") {
      it.skip(`${name} (not run: ${marker.reason})`, () => {})
      continue
    }
    if (marker.kind === "needs-database" && databaseUrl === "") {
      it.skip(`${name} (needs DATABASE_URL: it runs on PostgreSQL)`, () => {})
      continue
    }
    it(`${name}${marker.kind === "typecheck-only" ? ` typechecks (not run: ${marker.reason})` : " typechecks and runs"}`, async () => {
      expect((diagnostics.get(name) ?? []).join("\n"), `${name} does not typecheck`).toBe("")
      if (marker.kind === "typecheck-only") return
      const cwd = await mkdtemp(join(tmpdir(), "payrail-readme-run-"))
      cleanups.push(() => rm(cwd, { recursive: true, force: true }))
      const env = await environmentFor(block)
      const result = await execute(process.execPath, ["--import", tsx, fileOf(block)], { cwd, env })
      expect(result, `${name} failed:\n${result.stderr}`).toMatchObject({ code: 0 })
      if (block.expectedOutput !== undefined) {
        const printed = result.stdout.trimEnd().split("\n")
        const promised = block.expectedOutput
        expect(
          printed.length,
          `${name} printed:\n${result.stdout}\nbut its comments promise:\n${promised.join("\n")}`
        ).toBe(promised.length)
        promised.forEach((expected, line) =>
          expect(
            matchesPromise(expected, printed[line] ?? ""),
            `${name}, output line ${line + 1}: "${printed[line]}" is not "${expected}"`
          ).toBe(true)
        )
      }
    }, 300_000)
  }
})
