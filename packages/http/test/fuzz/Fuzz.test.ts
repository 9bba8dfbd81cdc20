import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import * as InProcess from "./InProcess.js"
import { format, run, type Summary } from "./Runner.js"
import { seeds } from "./Seeds.js"

// A fixed seed, so CI sends the same requests every run (`npm run fuzz -- --seed 20251013` replays them), a few
// thousand per adapter (enough that each of the 165 operations gets more than 20), about 150 s in all on two cores.
const seed = 20251013
const requestsOn: Readonly<Record<string, number>> = { memory: 7600, pglite: 7600 }

describe.each(adapters.filter((adapter) => adapter.name !== "postgres"))(
  "fuzz of every served operation on $name",
  (adapter) => {
    let target: Awaited<ReturnType<typeof InProcess.make>>
    let summary: Summary

    beforeAll(async () => {
      target = await InProcess.make(adapter.storage())
      summary = await run({ target, seed, requests: requestsOn[adapter.name] ?? 1000, concurrency: 4, seeds: seeds() })
      console.log(format(summary))
    }, 300_000)
    afterAll(() => target.dispose())

    it("seeds every resource it means to, a claimed invitation and a minted and burned stablecoin among them", () => {
      expect(summary.seeded.filter((seeded) => seeded.status >= 300)).toEqual([])
      const paths = summary.seeded.map((seeded) => seeded.path)
      for (const ending of [
        /\/invitations\/[0-9a-f]{32}\/claim$/,
        /\/stablecoins\/Stablecoin:[^/]+\/mints$/,
        /\/burns$/
      ]) {
        expect(
          paths.some((path) => ending.test(path)),
          String(ending)
        ).toBe(true)
      }
    })

    it("answers every case without a 5xx, an undocumented response, a leak or an echo", () => {
      expect(summary.findings, format(summary)).toEqual([])
      expect(summary.requests + summary.unsendable).toBe(requestsOn[adapter.name] ?? 1000)
    })

    it("reaches every operation, with and without valid input", () => {
      expect(Object.keys(summary.byOperation).length).toBe(165)
      for (const [operation, counts] of Object.entries(summary.byOperation)) {
        expect(counts.requests, operation).toBeGreaterThan(20)
      }
      for (const status of ["200", "201", "400", "401", "403", "404", "405", "413", "415"]) {
        expect(summary.statuses[status] ?? 0, `status ${status}`).toBeGreaterThan(0)
      }
    })
  }
)
