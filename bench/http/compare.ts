import { loadavg } from "node:os"
import * as Cluster from "./cluster.js"
import { envNumber, runMain } from "./lifecycle.js"
import { runLoad } from "./load.js"
import { cpuSeconds } from "./procfs.js"
import { type Endpoint, endpointLabels, endpoints, referenceLoad, type Seeded, seed } from "./scenario.js"
import { type ReferenceServer, runtimeFromEnv, startReference } from "./servers.js"
import { perRequest, readStatements, resetStatements } from "./statements.js"

// A change measured against the code before it: the reference server of this checkout (control) and of another
// (COMPARE_ROOT, for example a copy with the change applied and its dependencies installed) run side by side on
// PostgreSQL, each in a database of its own in one cluster, and every endpoint runs on both back to back, in rounds
// with the order reversed every other round. Prints requests/s, server CPU per request and statements per request,
// medians over rounds, and the experiment's ratio to the control. Run the same root against itself first: the
// spread of that A/A comparison is the noise a change must exceed. Not part of `pnpm bench`; run
// `COMPARE_ROOT=/path/to/checkout node --import tsx bench/http/compare.ts`. Environment: COMPARE_ENDPOINTS (default
// health,getCustomer,fund), COMPARE_SECONDS (default 5), COMPARE_ROUNDS (default 3), BENCH_PG_BIN, BENCH_RUNTIME
// (`compiled` by default, for both checkouts; `tsx` to compare with a checkout that has no compiled start).

const seconds = envNumber("COMPARE_SECONDS", 5)
const rounds = Math.round(envNumber("COMPARE_ROUNDS", 3))
const measured = (process.env["COMPARE_ENDPOINTS"] ?? "health,getCustomer,fund")
  .split(",")
  .map((name) => name.trim())
  .filter((name): name is Endpoint => (endpoints as ReadonlyArray<string>).includes(name))

interface Side {
  readonly label: "control" | "experiment"
  readonly server: ReferenceServer
  readonly database: Cluster.Database
  readonly seeded: Seeded
  readonly perSecond: Map<Endpoint, Array<number>>
  readonly cpuMs: Map<Endpoint, Array<number>>
  readonly statements: Map<Endpoint, Array<number>>
}

const median = (values: ReadonlyArray<number>): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const record = (map: Map<Endpoint, Array<number>>, endpoint: Endpoint, value: number) =>
  map.set(endpoint, [...(map.get(endpoint) ?? []), value])

const main = async () => {
  const experimentRoot = process.env["COMPARE_ROOT"]
  if (experimentRoot === undefined || experimentRoot === "")
    throw new Error("COMPARE_ROOT must name the checkout to compare with")
  const database = await Cluster.open()
  console.log(database.description)
  await Cluster.psql(database.adminUrl, "CREATE DATABASE payrail_experiment")
  const experimentDatabase = {
    ...database,
    url: database.url.replace(/\/payrail$/, "/payrail_experiment"),
    name: "payrail_experiment"
  }
  const side = async (label: Side["label"], db: Cluster.Database, root?: string): Promise<Side> => {
    const server = await startReference({
      storage: "postgres",
      databaseUrl: db.url,
      runtime: runtimeFromEnv(),
      ...(root === undefined ? {} : { root })
    })
    return {
      label,
      server,
      database: db,
      seeded: await seed(server, 100),
      perSecond: new Map(),
      cpuMs: new Map(),
      statements: new Map()
    }
  }
  const sides = [await side("control", database), await side("experiment", experimentDatabase, experimentRoot)]
  console.log(
    `control: this checkout; experiment: ${experimentRoot}; ${rounds} rounds of ${seconds} s; load average ${loadavg()[0]?.toFixed(2)}`
  )
  for (let round = 0; round < rounds; round++) {
    for (const endpoint of measured) {
      for (const current of round % 2 === 0 ? sides : [...sides].reverse()) {
        const spec = referenceLoad(endpoint, current.server, current.seeded)
        await runLoad(current.server.baseUrl, spec, 1)
        await resetStatements(current.database)
        const before = cpuSeconds(current.server.pid)
        const load = await runLoad(current.server.baseUrl, spec, seconds)
        const requests = Math.max(1, load.requests)
        record(current.perSecond, endpoint, load.perSecond)
        record(current.cpuMs, endpoint, ((cpuSeconds(current.server.pid) - before) * 1000) / requests)
        record(
          current.statements,
          endpoint,
          perRequest(await readStatements(current.database), load.requests).perRequest
        )
        const failures = load.non2xx + load.errors + load.timeouts
        console.log(
          `round ${round + 1}  ${endpointLabels[endpoint].padEnd(24)} ${current.label.padEnd(10)} ${Math.round(load.perSecond).toString().padStart(6)} req/s` +
            `${failures > 0 ? `  FAILURES ${failures}` : ""}`
        )
      }
    }
  }
  console.log(
    `\n${"endpoint".padEnd(24)} ${"side".padEnd(10)} ${"req/s".padStart(7)} ${"CPU ms/req".padStart(11)} ${"stmts/req".padStart(10)}`
  )
  for (const endpoint of measured) {
    for (const current of sides) {
      console.log(
        `${endpointLabels[endpoint].padEnd(24)} ${current.label.padEnd(10)} ${Math.round(
          median(current.perSecond.get(endpoint) ?? [])
        )
          .toString()
          .padStart(7)} ` +
          `${median(current.cpuMs.get(endpoint) ?? [])
            .toFixed(3)
            .padStart(11)} ${median(current.statements.get(endpoint) ?? [])
            .toFixed(1)
            .padStart(10)}`
      )
    }
    const [control, experiment] = sides
    if (control === undefined || experiment === undefined) continue
    const ratio = (pick: (side: Side) => Map<Endpoint, Array<number>>) =>
      (median(pick(experiment).get(endpoint) ?? []) / median(pick(control).get(endpoint) ?? [])).toFixed(2)
    console.log(
      `${"".padEnd(24)} experiment/control: req/s x${ratio((s) => s.perSecond)}, CPU/req x${ratio((s) => s.cpuMs)}`
    )
  }
  console.log(`load average at the end: ${loadavg()[0]?.toFixed(2)}`)
}

runMain(main)
