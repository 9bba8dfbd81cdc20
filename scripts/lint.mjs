// `npm run lint`: the formatter check (Prettier, .prettierrc.json), ESLint over the workspace, then the generated
// barrels are checked to be up to date. `npm run format` rewrites the files the formatter check refuses.
import { spawnSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const steps = [
  [path.join("node_modules", "prettier", "bin", "prettier.cjs"), "--check", "--log-level", "warn", "."],
  [path.join("node_modules", "eslint", "bin", "eslint.js"), "."],
  [path.join("scripts", "barrels.mjs"), "--check"]
]
for (const args of steps) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
