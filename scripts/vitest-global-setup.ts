import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { RunnerTask } from "vitest"
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

// Tests that wait for PostgreSQL say so in their own or their suite's name ("on PostgreSQL (DATABASE_URL)", "over
// HTTP on postgres", "needs DATABASE_URL"); other skipped tests (filtered out with -t, README examples marked not-run)
// are not counted.
const needsPostgres = /DATABASE_URL|PostgreSQL|\bon postgres\b/

const countSkippedForPostgres = (tasks: ReadonlyArray<RunnerTask>, path = ""): number =>
  tasks.reduce((count, task) => {
    const name = `${path} ${task.name}`
    if (task.type === "suite") return count + countSkippedForPostgres(task.tasks, name)
    const skipped = task.mode === "skip" || task.result?.state === "skip"
    return count + (skipped && needsPostgres.test(name) ? 1 : 0)
  }, 0)

/**
 * Runs initdb once per test run and provides the tarball's path as `pgliteTemplatePath`: a test PGlite created with
 * `loadDataDir` from it starts in well under a second instead of running initdb (about 4.5 s) itself. Without
 * `DATABASE_URL`, says once, after the summary, how many tests were skipped because no PostgreSQL server is named.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { PGlite } = requireFromStoragePostgres("@electric-sql/pglite") as PGliteModule
  const db = await PGlite.create()
  const tarball = await db.dumpDataDir("none").finally(() => db.close())
  const directory = await mkdtemp(join(tmpdir(), "payrail-pglite-"))
  const path = join(directory, "template.tar")
  await writeFile(path, new Uint8Array(await tarball.arrayBuffer()))
  project.provide("pgliteTemplatePath", path)
  return async () => {
    await rm(directory, { recursive: true, force: true })
    if ((process.env["DATABASE_URL"] ?? "") !== "") return
    const skipped = countSkippedForPostgres(project.vitest.state.getFiles())
    if (skipped === 0) return
    console.log(
      `\nDATABASE_URL is not set: ${skipped === 1 ? "1 test that needs" : `${skipped} tests that need`} PostgreSQL ` +
        `${skipped === 1 ? "was" : "were"} skipped. To run them, set DATABASE_URL to a PostgreSQL server ` +
        "(see README, Tests)."
    )
  }
}
