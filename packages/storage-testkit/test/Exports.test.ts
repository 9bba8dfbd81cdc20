import { readdirSync } from "node:fs"
import { createRequire } from "node:module"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const src = fileURLToPath(new URL("../src", import.meta.url))
const resolve = createRequire(import.meta.url).resolve

// Every module under an `internal/` folder, at any depth, as a subpath of the package.
const internalModules = readdirSync(src, { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith(".ts") && path.split(/[\\/]/).includes("internal"))
  .map((path) => relative(src, join(src, path)).replaceAll("\\", "/").slice(0, -".ts".length))

describe("@payrail/storage-testkit exports", () => {
  it("resolves the context modules and the index", () => {
    expect(resolve("@payrail/storage-testkit")).toMatch(/src[\\/]index\.ts$/)
    expect(resolve("@payrail/storage-testkit/kernel/UnitOfWorkSuite")).toMatch(
      /src[\\/]kernel[\\/]UnitOfWorkSuite\.ts$/
    )
  })

  it("closes every internal folder", () => {
    expect(internalModules).toContain("internal/Methods")
    for (const path of internalModules) {
      expect(() => resolve(`@payrail/storage-testkit/${path}`), path).toThrow(/not exported|not defined by "exports"/)
    }
  })
})
