import { parseArgs } from "node:util"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import * as InProcess from "./InProcess.js"
import { format, run, type Target } from "./Runner.js"
import { seeds } from "./Seeds.js"

/*
 * `npm run fuzz`: a long fuzz of every operation the API serves, in this process (memory or PGlite) or against a
 * running server (`--target`). Prints a summary and exits 1 when anything was found.
 */

const usage = `npm run fuzz -- [options]
  --seed <n>              seed of the run (default: a new one, printed); a run is reproduced by its seed
  --requests <n>          number of requests (default 20000)
  --concurrency <n>       requests in flight at once (default 8)
  --target <url>          mount URL of a running server (default: the API in this process)
  --credentials <id:secret>        a token with every permission (with --target; or PAYRAIL_FUZZ_CREDENTIALS)
  --view-credentials <id:secret>   a VIEW-only token of the same platform (or PAYRAIL_FUZZ_VIEW_CREDENTIALS)
  --storage memory|pglite in process: the store (default memory)
  --only <index>          send only case <index> of the seed and print it in full
  --findings <n>          findings to print (default 50)`

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    requests: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "8" },
    target: { type: "string" },
    credentials: { type: "string" },
    "view-credentials": { type: "string" },
    storage: { type: "string", default: "memory" },
    only: { type: "string" },
    findings: { type: "string", default: "50" },
    help: { type: "boolean", default: false }
  }
})

const integer = (name: string, text: string | undefined): number => {
  const value = Number(text)
  if (text === undefined || !Number.isSafeInteger(value) || value < 0) {
    console.error(`--${name} must be a non-negative integer\n\n${usage}`)
    process.exit(2)
  }
  return value
}

if (values.help) {
  console.log(usage)
  process.exit(0)
}

const basic = (credentials: string | undefined) =>
  credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString("base64")}`

const remote = async (url: string): Promise<Target & { dispose: () => Promise<void> }> => {
  const full = basic(values.credentials ?? process.env["PAYRAIL_FUZZ_CREDENTIALS"])
  const view = basic(values["view-credentials"] ?? process.env["PAYRAIL_FUZZ_VIEW_CREDENTIALS"])
  if (full === undefined) {
    console.error(`--target needs --credentials (or PAYRAIL_FUZZ_CREDENTIALS)\n\n${usage}`)
    process.exit(2)
  }
  if (view === undefined) console.error("no --view-credentials: the VIEW cases use the full token")
  return {
    mountUrl: url.replace(/\/+$/, ""),
    fetch: (input, init) => fetch(input, init),
    basic: full,
    ...(view === undefined ? {} : { viewBasic: view }),
    inProcess: false,
    dispose: async () => {}
  }
}

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : integer("seed", values.seed)
const target =
  values.target !== undefined
    ? await remote(values.target)
    : await InProcess.make(values.storage === "pglite" ? StoragePostgres.layerPglite({}) : StorageMemory.layer)
const only = values.only === undefined ? undefined : integer("only", values.only)
console.error(
  `fuzzing ${values.target ?? `the API in process (${values.storage})`} with seed ${seed}` +
    (only === undefined ? `, ${values.requests} requests` : `, case ${only}`)
)
const summary = await run({
  target,
  seed,
  requests: integer("requests", values.requests),
  concurrency: integer("concurrency", values.concurrency),
  seeds: seeds(),
  keepFindings: integer("findings", values.findings),
  ...(only === undefined ? {} : { only }),
  ...(only === undefined
    ? {}
    : {
        onExchange: (kase, status, body) => {
          const shown = kase.body?.kind === "text" ? kase.body.text.slice(0, 2000) : JSON.stringify(kase.body)
          console.log(
            `${kase.method} ${kase.target}\n${JSON.stringify(kase.headers)} auth ${JSON.stringify(kase.auth)}`
          )
          console.log(`body: ${shown}\n-> ${status} ${body.slice(0, 2000)}`)
        }
      })
})
await target.dispose()
console.log(format(summary, integer("findings", values.findings)))
process.exit(Object.values(summary.counts).some((count) => count > 0) ? 1 : 0)
