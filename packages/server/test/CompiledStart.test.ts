import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { once } from "node:events"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { freePort } from "./ServerProcess.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const serverDirectory = fileURLToPath(new URL("../", import.meta.url))
const condition = "payrail-compiled"

type Target = null | { readonly [condition: string]: string }
interface Manifest {
  readonly name: string
  readonly exports: Record<string, Target>
}

const manifests: ReadonlyArray<Manifest> = readdirSync(`${root}packages`).map((name) =>
  JSON.parse(readFileSync(`${root}packages/${name}/package.json`, "utf8"))
)

/** Where Node resolves `specifier` from the server package, with `conditions` set on its command line. */
const resolved = (specifier: string, conditions: ReadonlyArray<string>): string =>
  execFileSync(
    process.execPath,
    [...conditions, "--input-type=module", "-e", `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`],
    { cwd: serverDirectory, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }
  ).trim()

describe("the compiled server npm start runs", () => {
  it("has every package resolve to its compiled output under the payrail-compiled condition, else to its sources", () => {
    for (const manifest of manifests) {
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        if (target === null || subpath.startsWith("./test/")) continue
        const source = target["default"] ?? ""
        // Node takes the first condition it knows: `types` is TypeScript's, the rest fall through to `default`.
        expect(Object.keys(target), `${manifest.name} ${subpath}`).toEqual(["types", condition, "default"])
        expect(target[condition], `${manifest.name} ${subpath}`).toBe(
          source.replace(/^\.\/src\//, "./dist/src/").replace(/\.ts$/, ".js")
        )
      }
    }
    expect(resolved("@payrail/storage-postgres", [`--conditions=${condition}`])).toMatch(
      /packages\/storage-postgres\/dist\/src\/index\.js$/
    )
    expect(resolved("@payrail/http/kernel/DocsPage", [`--conditions=${condition}`])).toMatch(
      /packages\/http\/dist\/src\/kernel\/DocsPage\.js$/
    )
    expect(resolved("@payrail/core", [])).toMatch(/packages\/core\/src\/index\.ts$/)
    expect(() => resolved("@payrail/storage-postgres/internal/rows", [`--conditions=${condition}`])).toThrow(
      /ERR_PACKAGE_PATH_NOT_EXPORTED/
    )
  })

  it("builds with npm start, serves the README's request, and runs compiled JavaScript with no TypeScript loader", async () => {
    const port = await freePort()
    const child: ChildProcess = spawn(process.execPath, ["scripts/bootstrap.mjs", "start"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_OPTIONS: "",
        PORT: String(port),
        PAYRAIL_STORAGE: "memory",
        LOG_LEVEL: "Warning",
        NO_COLOR: "1"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const exited = once(child, "exit")
    try {
      const deadline = Date.now() + 280_000
      while (!/client secret\s+\S+/.test(output)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not start:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(output).toContain(`API base URL      http://127.0.0.1:${port}/2025-10-13`)
      const clientId = /client id\s+(\S+)/.exec(output)?.[1] ?? ""
      const clientSecret = /client secret\s+(\S+)/.exec(output)?.[1] ?? ""
      const created = await fetch(`http://127.0.0.1:${port}/2025-10-13/customers`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
          "content-type": "application/json"
        },
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Ada Lovelace", email: "ada@example.com" })
      })
      expect(created.status).toBe(201)
      expect(await created.json()).toMatchObject({ fullName: "Ada Lovelace", email: "ada@example.com" })
      const docs = await fetch(`http://127.0.0.1:${port}/docs`)
      expect(docs.status).toBe(200)
      expect(await docs.text()).toContain("<title>Payrail API</title>")
      // The bootstrap's one child still running is the server.
      const [server] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(" ")
      const command = readFileSync(`/proc/${server}/cmdline`, "utf8").split("\0")
      // The V8 heap is capped so that the server stays within the issue's 250 MB on PostgreSQL under load.
      expect(command.slice(1, 5)).toEqual([
        "--max-old-space-size=192",
        `--conditions=${condition}`,
        "packages/server/dist/src/bin.js",
        "serve"
      ])
      expect(command.join(" ")).not.toContain("tsx")
    } finally {
      child.kill("SIGTERM")
      await exited
    }
    expect(child.exitCode).toBe(0)
  }, 300_000)
})
