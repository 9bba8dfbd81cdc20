import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"

interface Manifest {
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
}

const read = (path: string): Manifest => JSON.parse(readFileSync(path, "utf8"))
const own = read(new URL("../package.json", import.meta.url).pathname)
// The installed packages, as this package's node_modules links them (some close `./package.json` in `exports`).
const manifestOf = (name: string): Manifest =>
  read(new URL(`../node_modules/${name}/package.json`, import.meta.url).pathname)
const names = (record: Record<string, string> | undefined) => Object.keys(record ?? {})

describe("@payrail/storage-postgres manifest", () => {
  it("takes effect, core and the @effect packages whose tags it shares as peers, never as dependencies", () => {
    expect(names(own.peerDependencies).sort()).toEqual([
      "@effect/experimental",
      "@effect/platform",
      "@effect/sql",
      "@payrail/core",
      "effect"
    ])
    for (const peer of names(own.peerDependencies)) expect(names(own.dependencies)).not.toContain(peer)
  })

  it("tests against what it asks of consumers: each peer is a dev dependency with the same range", () => {
    for (const [name, range] of Object.entries(own.peerDependencies ?? {})) {
      expect(own.devDependencies?.[name], name).toBe(range)
    }
  })

  it("leaves every peer of its dependencies and peers to the consumer, so an application has one copy of each", () => {
    for (const name of [...names(own.dependencies), ...names(own.peerDependencies)]) {
      if (name.startsWith("@payrail/")) continue
      const manifest = manifestOf(name)
      const required = names(manifest.peerDependencies).filter(
        (peer) => !manifest.peerDependenciesMeta?.[peer]?.optional
      )
      for (const peer of required) expect(names(own.peerDependencies), `${name} needs ${peer}`).toContain(peer)
    }
  })
})
