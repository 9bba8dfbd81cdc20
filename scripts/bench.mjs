// Runs the benchmark scripts under bench/: `pnpm bench` runs all of them, `pnpm bench <name>` one.
// Each bench/<name>/run.ts prints its own figures; benchmarks never run as part of the tests.
import { spawnSync } from "node:child_process"
import { readdirSync, existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import path from "node:path"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const benchDir = path.join(root, "bench")
const wanted = process.argv.slice(2)
const available = readdirSync(benchDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(benchDir, entry.name, "run.ts")))
  .map((entry) => entry.name)
const names = available.filter((name) => wanted.length === 0 || wanted.includes(name))
const unknown = wanted.filter((name) => !available.includes(name))
if (unknown.length > 0) {
  console.error(`no benchmark named ${unknown.join(", ")}; available: ${available.join(", ") || "none"}`)
  process.exit(2)
}
for (const name of names) {
  console.log(`\n== bench/${name}`)
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(benchDir, name, "run.ts")], {
    cwd: root,
    stdio: "inherit"
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
