import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const storagePostgresDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../packages/storage-postgres")

/** bench/ is not a workspace package: load a dependency of storage-postgres by its ESM entry, the instance its sources use. */
export const importFromStoragePostgres = async <A>(name: string, subpath = "."): Promise<A> => {
  const require = createRequire(path.join(storagePostgresDir, "package.json"))
  const manifestPath = require.resolve(`${name}/package.json`)
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports: Record<string, { import: string }> }
  const entry = manifest.exports[subpath]?.import
  if (entry === undefined) throw new Error(`${name} has no ESM export ${subpath}`)
  return (await import(pathToFileURL(path.join(path.dirname(manifestPath), entry)).href)) as A
}
