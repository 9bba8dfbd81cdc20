import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import * as fc from "fast-check"
import { Timestamp } from "@payrail/core"

describe("Timestamp.isoFormatter", () => {
  it("gives DateTime.formatIso's text for every instant, however often and in whatever order it comes", () => {
    const instant = fc.date({ noInvalidDate: true }).map((date) => DateTime.unsafeFromDate(date))
    fc.assert(
      fc.property(fc.array(instant, { maxLength: 20 }), fc.array(fc.nat()), (instants, repeats) => {
        const iso = Timestamp.isoFormatter()
        // Each instant, then some of them again (the memo's answers), in the order the indices give.
        const again = repeats.flatMap((index) => (instants.length === 0 ? [] : [instants[index % instants.length]!]))
        for (const at of [...instants, ...again]) expect(iso(at)).toBe(DateTime.formatIso(at))
      }),
      { numRuns: 300 }
    )
  })

  it("tells apart instants a millisecond apart", () => {
    const iso = Timestamp.isoFormatter()
    const at = DateTime.unsafeMake("2026-11-27T01:02:03.004Z")
    expect([iso(at), iso(DateTime.add(at, { millis: 1 })), iso(at)]).toStrictEqual([
      "2026-11-27T01:02:03.004Z",
      "2026-11-27T01:02:03.005Z",
      "2026-11-27T01:02:03.004Z"
    ])
  })
})
