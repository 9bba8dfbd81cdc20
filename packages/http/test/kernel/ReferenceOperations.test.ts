import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

/** `shared/spec/grid-reference.md` in the nearest directory above this one that has it (as the wallet vectors). */
const referencePath = (): string => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "shared/spec/grid-reference.md")
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) throw new Error("no shared/spec/grid-reference.md above this test")
  }
}

/** The rows of the reference's table of every operation (its section 4): `METHOD /path`, parameters as `{}`. */
const referenceOperations = (): ReadonlyArray<string> =>
  readFileSync(referencePath(), "utf8")
    .split("\n")
    .filter((line) => /^\| (GET|POST|PUT|PATCH|DELETE) \| `\//.test(line))
    .map((line) => {
      const [, method, path] = line.split("|").map((cell) => cell.trim())
      return `${method} ${(path ?? "").replaceAll("`", "").replace(/\{[^}]+\}/g, "{}")}`
    })

const methods = ["get", "post", "put", "patch", "delete"] as const
const basePath = "/2025-10-13"

let api: Harness
beforeAll(async () => {
  api = await makeHarness()
})
afterAll(() => api.dispose())

describe("the served operations against the reference's table", () => {
  it("serves every operation of the reference's table, and prints any that is missing", async () => {
    const document: { readonly paths: Record<string, Partial<Record<string, unknown>>> } = await (
      await api.request("/openapi.json", { auth: null })
    ).json()
    const served = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        methods
          .filter((method) => item[method] !== undefined)
          .map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`)
      )
    )
    const reference = referenceOperations()
    expect(reference).toHaveLength(153)
    const missing = reference.filter(
      (operation) => !served.has(`${operation.split(" ")[0]} ${basePath}${operation.split(" ")[1]}`)
    )
    if (missing.length > 0)
      console.log(`Operations of the reference not served (${missing.length}):\n${missing.join("\n")}`)
    expect(missing).toEqual([])
  })
})
