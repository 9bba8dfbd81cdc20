import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type {} from "vitest"
import type { TestProject } from "vitest/node"

// The augmentation needs "vitest" imported in this file (the type-only import above, erased at runtime).
declare module "vitest" {
  export interface ProvidedContext {
    /** A PGlite data directory fresh from initdb, as an uncompressed `dumpDataDir` tarball. */
    pgliteTemplatePath: string
  }
}

interface PGliteModule {
  readonly PGlite: {
    create(): Promise<{ dumpDataDir(compression: "none"): Promise<Blob>; close(): Promise<void> }>
  }
}

// This file belongs to the root package, which under pnpm cannot see @electric-sql/pglite; resolve it from the
// package that depends on it.
const requireFromStoragePostgres = createRequire(new URL("../packages/storage-postgres/package.json", import.meta.url))

/**
 * Runs initdb once per test run and provides the tarball's path as `pgliteTemplatePath`: a test PGlite created with
 * `loadDataDir` from it starts in well under a second instead of running initdb (about 4.5 s) itself.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { PGlite } = requireFromStoragePostgres("@electric-sql/pglite") as PGliteModule
  const db = await PGlite.create()
  const tarball = await db.dumpDataDir("none").finally(() => db.close())
  const directory = await mkdtemp(join(tmpdir(), "payrail-pglite-"))
  const path = join(directory, "template.tar")
  await writeFile(path, new Uint8Array(await tarball.arrayBuffer()))
  project.provide("pgliteTemplatePath", path)
  return () => rm(directory, { recursive: true, force: true })
}
