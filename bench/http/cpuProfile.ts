import { fileURLToPath } from "node:url"

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) that the summary reads. */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
    readonly children?: ReadonlyArray<number>
  }>
  /** Microseconds of the monotonic clock (the one `process.hrtime` reads), as are the deltas. */
  readonly startTime: number
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** A time window in microseconds of the monotonic clock. */
export interface Window {
  readonly fromMicros: number
  readonly toMicros: number
}

/** One line of a summary: a module, file or function with its share of the window's busy samples. */
export interface Share {
  readonly name: string
  readonly samples: number
  readonly percent: number
}

/** Where the main thread's time went in a window: busy samples by module, file and function, self and inclusive. */
export interface Summary {
  readonly samples: number
  readonly idleSamples: number
  readonly modules: ReadonlyArray<Share>
  readonly files: ReadonlyArray<Share>
  readonly selfFunctions: ReadonlyArray<Share>
  readonly inclusiveModules: ReadonlyArray<Share>
  readonly categories: ReadonlyArray<Share>
}

const special = new Set(["(garbage collector)", "(program)", "(idle)", "(root)"])

// A module is the package a frame's file belongs to: the last node_modules package in its path, a workspace
// package (@payrail/<name>), a Node built-in area (node:internal/streams/writable -> node:streams), or V8 itself.
const moduleOf = (functionName: string, url: string): string => {
  if (url === "") return special.has(functionName) ? functionName : "(native / V8 builtins)"
  if (url.startsWith("node:")) {
    const rest = url.slice("node:".length).replace(/^internal\//, "")
    return `node:${rest.split("/")[0] ?? rest}`
  }
  const file = url.startsWith("file://") ? fileURLToPath(url) : url
  const inModules = file.lastIndexOf("/node_modules/")
  if (inModules >= 0) {
    const parts = file.slice(inModules + "/node_modules/".length).split("/")
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1] ?? ""}` : (parts[0] ?? file)
  }
  const workspace = /\/packages\/([^/]+)\//.exec(file)
  return workspace?.[1] === undefined ? file : `@payrail/${workspace[1]}`
}

const fileOf = (functionName: string, url: string): string => {
  if (url === "") return moduleOf(functionName, url)
  if (url.startsWith("node:")) return url
  const file = url.startsWith("file://") ? fileURLToPath(url) : url
  const inModules = file.lastIndexOf("/node_modules/")
  if (inModules >= 0) return file.slice(inModules + "/node_modules/".length).replace(/\/dist\/(esm|cjs)\//, "/")
  const workspace = file.indexOf("/packages/")
  return workspace >= 0 ? file.slice(workspace + 1) : file
}

const schemaFiles = /^effect\/(ParseResult|Schema|SchemaAST)\.js$/
const socketWrites = new Set(["writev", "writeBuffer", "writeUtf8String", "writeLatin1String", "writeAsciiString"])

// A coarse category of a frame's self time, for the question "where does a request's CPU go".
const categoryOf = (functionName: string, url: string): string => {
  const module = moduleOf(functionName, url)
  const file = fileOf(functionName, url)
  if (url === "" && socketWrites.has(functionName)) return "socket writes (writev and friends, native)"
  if (module === "(garbage collector)") return "garbage collection"
  if (module === "effect")
    return schemaFiles.test(file) ? "Schema decoding and encoding (effect)" : "Effect runtime (fibers, context, core)"
  if (["pg", "pg-protocol", "pg-pool", "pg-types", "@effect/sql", "@effect/sql-pg", "postgres-array"].includes(module))
    return "SQL client (pg, @effect/sql)"
  if (module.startsWith("@effect/platform") || /^node:(_http|http)/.test(module))
    return "HTTP (node:http, @effect/platform)"
  if (module === "node:crypto" || file.includes("crypto")) return "crypto"
  if (module.startsWith("@payrail/")) return "Payrail code"
  if (module.startsWith("node:")) return "other Node internals (streams, net, events, timers)"
  if (module === "(native / V8 builtins)") return "other native and V8 builtins"
  return module
}

const ranked = (counts: Map<string, number>, total: number, top: number): ReadonlyArray<Share> =>
  [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, samples]) => ({ name, samples, percent: total === 0 ? 0 : (samples * 100) / total }))

const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1)

/**
 * Aggregates the samples of `profile` that fall in `window`: idle samples are counted apart, the others (busy:
 * JavaScript, GC, V8 and native code on the main thread) by the module, file and function of the frame that was
 * running (self time), and by every module on the stack (inclusive time, each module once per sample).
 */
export const summarize = (profile: CpuProfile, window: Window, top = 25): Summary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const modules = new Map<string, number>()
  const files = new Map<string, number>()
  const functions = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const categories = new Map<string, number>()
  let at = profile.startTime
  let samples = 0
  let idle = 0
  for (const [index, id] of profile.samples.entries()) {
    at += profile.timeDeltas[index] ?? 0
    if (at < window.fromMicros || at > window.toMicros) continue
    const node = byId.get(id)
    if (node === undefined) continue
    const { functionName, lineNumber, url } = node.callFrame
    if (functionName === "(idle)") {
      idle += 1
      continue
    }
    samples += 1
    add(modules, moduleOf(functionName, url))
    add(categories, categoryOf(functionName, url))
    add(files, fileOf(functionName, url))
    add(
      functions,
      `${functionName || "(anonymous)"}  ${fileOf(functionName, url)}${url === "" ? "" : `:${lineNumber + 1}`}`
    )
    const seen = new Set<string>()
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current)?.callFrame
      if (frame === undefined || frame.functionName === "(root)") continue
      seen.add(moduleOf(frame.functionName, frame.url))
    }
    for (const name of seen) add(inclusive, name)
  }
  return {
    samples,
    idleSamples: idle,
    modules: ranked(modules, samples, top),
    files: ranked(files, samples, top),
    selfFunctions: ranked(functions, samples, top),
    inclusiveModules: ranked(inclusive, samples, top),
    categories: ranked(categories, samples, top)
  }
}

/** The profile's first and last sample times, to check that a window falls inside it. */
export const span = (profile: CpuProfile): Window => ({
  fromMicros: profile.startTime,
  toMicros: profile.startTime + profile.timeDeltas.reduce((sum, delta) => sum + delta, 0)
})
