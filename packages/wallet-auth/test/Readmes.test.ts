import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterEach, describe, expect, it, vi } from "vitest"
import { makeFakeWalletBackend } from "./helpers/fakeWalletBackend.js"

/**
 * Runs the first `ts` block of each wallet package README and compares what it logs with the `// …` comments after
 * its `console.log` calls. It lives here because @payrail/wallet-auth is the package that can import all three.
 */
const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const fileUrl = (relative: string) => pathToFileURL(path.join(packagesDir, relative)).href

const esmEntry = (name: string): string => {
  const require = createRequire(path.join(packagesDir, "wallet-auth/package.json"))
  const manifestPath = require.resolve(`${name}/package.json`)
  const manifest = require(manifestPath) as { exports: { ".": { import: string } } }
  return pathToFileURL(path.join(path.dirname(manifestPath), manifest.exports["."].import)).href
}

const specifiers: Readonly<Record<string, string>> = {
  "@payrail/wallet-protocol": fileUrl("wallet-protocol/src/index.ts"),
  "@payrail/signer": fileUrl("signer/src/index.ts"),
  "@payrail/wallet-auth": fileUrl("wallet-auth/src/index.ts"),
  "@payrail/core": fileUrl("core/src/index.ts"),
  effect: esmEntry("effect")
}

const runReadmeExample = async (pkg: string) => {
  const readme = await readFile(path.join(packagesDir, pkg, "README.md"), "utf8")
  const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? ""
  const expected = code.split("\n").flatMap((line) => {
    const comment = /console\.log\(.*\) \/\/ (.*)$/.exec(line)
    return comment?.[1] === undefined ? [] : [comment[1]]
  })
  const runnable = code.replace(/from "([^"]+)"/g, (original, specifier: string) =>
    specifiers[specifier] === undefined ? original : `from "${specifiers[specifier]}"`
  )
  const dir = await mkdtemp(path.join(tmpdir(), "payrail-readme-"))
  const logged: Array<string> = []
  const log = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
    logged.push(args.map(String).join(" "))
  })
  try {
    const file = path.join(dir, `${pkg}.ts`)
    await writeFile(file, runnable)
    await import(pathToFileURL(file).href)
  } finally {
    log.mockRestore()
    await rm(dir, { recursive: true, force: true })
  }
  return { expected, logged }
}

describe("README examples", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("@payrail/wallet-protocol prints what its comments say", async () => {
    const { expected, logged } = await runReadmeExample("wallet-protocol")
    expect(expected.length).toBeGreaterThan(0)
    expect(logged).toEqual(expected)
  })

  it("@payrail/wallet-auth prints what its comments say", async () => {
    const { expected, logged } = await runReadmeExample("wallet-auth")
    expect(expected.length).toBeGreaterThan(0)
    expect(logged).toEqual(expected)
  })

  it("@payrail/signer runs its complete device flow against the wallet-auth services", async () => {
    const backend = makeFakeWalletBackend()
    vi.stubGlobal("fetch", backend.fetch)
    try {
      const { expected, logged } = await runReadmeExample("signer")
      expect(expected).toEqual(["202 200", "202 204"])
      expect(logged).toEqual(expected)
      expect(backend.sessions.size).toBe(0)
    } finally {
      await backend.dispose()
    }
  })
})
