// A preload (`node --import ./bench/http/effectOps.mjs`) that counts the operations Effect's fiber runtime runs, by
// the function each one runs (its source text), for `bench/payments/phases.ts` with PHASES_OPS=1 and the webhook
// bench with BENCH_WEBHOOK_OPS=1 (both through `effectOpsCount.ts`). Unlike CPU time, the count does not move with
// the machine's speed or its other load, so a change to the request path can be measured on a shared machine in one
// run. It reaches into Effect's internal fiber runtime (`FiberRuntime` and its per-operation methods) and is for
// benchmarks only.
//
// SIGUSR2 starts a count; the next SIGUSR2 writes it to `${EFFECT_OPS_PREFIX}-<n>.txt` (n = 0, 1, ...): the
// operations in all, then one line per function, most frequent first, the counts divided by EFFECT_OPS_DIVISOR
// (the requests of the phase).
import { writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"

const prefix = process.env["EFFECT_OPS_PREFIX"]
if (prefix !== undefined && prefix !== "") {
  // The server's `effect` (every package of the workspace resolves the same one), through the server package.
  const require = createRequire(fileURLToPath(new URL("../../packages/server/package.json", import.meta.url)))
  const entry = require.resolve("effect")
  const internal = path.join(path.dirname(entry), "..", "esm", "internal", "fiberRuntime.js")
  const { FiberRuntime } = await import(internal)

  // Which function an operation runs: the field of the primitive that holds it.
  const functionOf = {
    Sync: (op) => op.effect_instruction_i0,
    WithRuntime: (op) => op.effect_instruction_i0,
    OnSuccess: (op) => op.effect_instruction_i1,
    OnFailure: (op) => op.effect_instruction_i1,
    OnSuccessAndFailure: (op) => op.effect_instruction_i2,
    UpdateRuntimeFlags: (op) => op.effect_instruction_i1,
    Commit: (op) => op.commit,
    Async: (op) => op.effect_instruction_i0,
    Iterator: () => undefined,
    Success: () => undefined,
    Failure: () => undefined,
    Tag: () => undefined,
    While: () => undefined,
    Yield: () => undefined
  }
  const names = new WeakMap()
  const nameOf = (fn) => {
    if (typeof fn !== "function") return ""
    let name = names.get(fn)
    if (name === undefined) {
      name = fn.toString().replace(/\s+/g, " ").slice(0, 140)
      names.set(fn, name)
    }
    return name
  }
  let counts = new Map()
  let total = 0
  let counting = false
  const proto = FiberRuntime.prototype
  for (const [operation, pick] of Object.entries(functionOf)) {
    const run = proto[operation]
    if (typeof run !== "function") throw new Error(`Effect's fiber runtime has no ${operation} operation`)
    proto[operation] = function (op) {
      if (counting) {
        total += 1
        const key = `${operation} ${nameOf(pick(op))}`.trim()
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
      return run.call(this, op)
    }
  }
  let signals = 0
  process.on("SIGUSR2", () => {
    if (signals % 2 === 0) {
      counts = new Map()
      total = 0
      counting = true
    } else {
      counting = false
      const divisor = Number(process.env["EFFECT_OPS_DIVISOR"] ?? "1") || 1
      const per = (count) => (count / divisor).toFixed(2).padStart(9)
      const lines = [...counts].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${per(count)}  ${key}`)
      writeFileSync(`${prefix}-${(signals - 1) / 2}.txt`, [`${per(total)}  (all operations)`, ...lines, ""].join("\n"))
    }
    signals += 1
  })
}
