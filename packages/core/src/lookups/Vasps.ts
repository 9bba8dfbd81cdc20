import { DateTime, Option, Schema } from "effect"
import { Page } from "../kernel/index.js"
import shipped from "./data/vasps.json" with { type: "json" }

/**
 * The directory of virtual asset service providers (exchanges and custodians) a counterparty's wallet can be hosted
 * by, for a wallet's `vaspName` (docs/discoveries.md): the data set `data/vasps.json`, sorted by name.
 */

/** A VASP as the reference API shows it: `vaspName` (the value to declare) and its website. */
export const Vasp = Schema.Struct({ vaspName: Schema.String, url: Schema.String }).annotations({ identifier: "Vasp" })
export type Vasp = typeof Vasp.Type

const DataSet = Schema.Struct({ source: Schema.String, vasps: Schema.Array(Vasp) })

/** Every VASP of the data set, in case-insensitive name order. */
export const all: ReadonlyArray<Vasp> = Schema.decodeUnknownSync(DataSet)(shipped).vasps

// Names are unique, so a page continues after the last name it showed (keyset on the name; the time is unused).
const epoch = DateTime.unsafeMake(0)
const keyOf = (vasp: Vasp): Page.Cursor => ({ createdAt: epoch, id: vasp.vaspName.toLowerCase() })

/**
 * One page of the VASPs whose name contains `search` (case-insensitive; all without it), in name order, counted.
 * The page's `nextCursor` is the last name shown, so the data set's order decides the pages.
 */
export const page = (search: string | undefined, request: Page.PageRequest): Page.Page<Vasp> => {
  const needle = search?.trim().toLowerCase() ?? ""
  const matching = all.filter((vasp) => needle === "" || vasp.vaspName.toLowerCase().includes(needle))
  const after = Option.map(request.after, (cursor) => cursor.id)
  const rest = Option.isNone(after) ? matching : matching.filter((vasp) => keyOf(vasp).id > after.value)
  return Page.fromOverfetch(rest.slice(0, request.limit + 1), request, keyOf, matching.length)
}
