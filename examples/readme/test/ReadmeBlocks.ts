import { readdirSync, readFileSync, existsSync } from "node:fs"
import { join } from "node:path"

/** What a README says about running one of its examples, in an HTML comment just above the code fence. */
export type Marker =
  | { readonly kind: "run" }
  /** `<!-- not-run: reason -->`: neither typechecked nor run. */
  | { readonly kind: "not-run"; readonly reason: string }
  /** `<!-- typecheck-only: reason -->`: typechecked, not run. */
  | { readonly kind: "typecheck-only"; readonly reason: string }
  /** `<!-- needs: DATABASE_URL -->`: run only when a PostgreSQL server is configured, on a throw-away database. */
  | { readonly kind: "needs-database" }
  /** `<!-- needs: server -->`: run against a running reference server (PAYRAIL_URL, PAYRAIL_CLIENT_ID/SECRET). */
  | { readonly kind: "needs-server" }

/** One ```ts block of a package README. */
export interface ReadmeBlock {
  /** `packages/<name>`, relative to the repository root. */
  readonly packageDir: string
  /** `packages/<name>/README.md`. */
  readonly readme: string
  /** 1-based position among the README's ```ts blocks. */
  readonly index: number
  /** The README line of the block's first code line. */
  readonly firstLine: number
  readonly code: string
  readonly marker: Marker
  /** The output the block's `console.log(…) // output` comments promise, one entry per line, when every call has one. */
  readonly expectedOutput: ReadonlyArray<string> | undefined
}

const markerPattern = /^<!--\s*(not-run|typecheck-only|needs)\s*:?\s*(.*?)\s*-->$/

/** Reads the marker comment on the last non-blank line before a fence; a marker without its reason is an error. */
const markerAbove = (lines: ReadonlyArray<string>, fence: number, where: string): Marker => {
  let above = fence - 1
  while (above >= 0 && lines[above]?.trim() === "") above--
  const match = markerPattern.exec(lines[above]?.trim() ?? "")
  if (match === null) return { kind: "run" }
  const [, kind, argument = ""] = match
  if (kind === "needs") {
    if (argument === "DATABASE_URL") return { kind: "needs-database" }
    if (argument === "server") return { kind: "needs-server" }
    throw new Error(`${where}: unknown <!-- needs: ${argument} -->; use DATABASE_URL or server`)
  }
  if (argument === "") throw new Error(`${where}: <!-- ${kind} --> needs a reason: <!-- ${kind}: why -->`)
  return kind === "not-run" ? { kind: "not-run", reason: argument } : { kind: "typecheck-only", reason: argument }
}

const consoleLog = /\bconsole\.log\(/
const trailingComment = /\/\/ (.*)$/

const expectedOutputOf = (code: string): ReadonlyArray<string> | undefined => {
  const calls = code.split("\n").filter((line) => consoleLog.test(line))
  const promised = calls.map((line) => trailingComment.exec(line)?.[1])
  return calls.length > 0 && promised.every((text) => text !== undefined)
    ? promised.map((text) => text.trim())
    : undefined
}

/** Every ```ts block of `readme` (a path relative to `root`), with its marker. */
export const blocksOf = (root: string, packageDir: string): Array<ReadmeBlock> => {
  const readme = join(packageDir, "README.md")
  const lines = readFileSync(join(root, readme), "utf8").split("\n")
  const blocks: Array<ReadmeBlock> = []
  for (let line = 0; line < lines.length; line++) {
    if (lines[line]?.trim() !== "```ts") continue
    const end = lines.findIndex((text, at) => at > line && text.trim() === "```")
    if (end === -1) throw new Error(`${readme}:${line + 1}: the code block is never closed`)
    const index = blocks.length + 1
    const code = lines.slice(line + 1, end).join("\n")
    const marker = markerAbove(lines, line, `${readme} block ${index} (line ${line + 1})`)
    blocks.push({
      packageDir,
      readme,
      index,
      firstLine: line + 2,
      code,
      marker,
      expectedOutput: expectedOutputOf(code)
    })
    line = end
  }
  return blocks
}

/** The README examples of every package under `root/packages`. */
export const allBlocks = (root: string): Array<ReadmeBlock> =>
  readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, "packages", entry.name, "README.md")))
    .map((entry) => entry.name)
    .sort()
    .flatMap((name) => blocksOf(root, join("packages", name)))

/** Whether `actual` is what `expected` promises, where `…` in `expected` stands for any text. */
export const matchesPromise = (expected: string, actual: string): boolean => {
  const pattern = expected
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*")
  return new RegExp(`^${pattern}$`).test(actual.trim())
}
