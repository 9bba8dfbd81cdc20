import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import type { Storage, TransactionRepo } from "@payrail/core"
import { Fixtures } from "@payrail/storage-testkit"
import { DateTime, Effect, type Layer, Option, Schema } from "effect"
import { Listing, listStatement } from "../../src/payments/internal/transactionPages.js"

/** A node of `EXPLAIN (ANALYZE, FORMAT JSON)`. */
interface PlanNode {
  readonly "Node Type": string
  readonly "Relation Name"?: string
  readonly "Index Name"?: string
  readonly "Index Cond"?: string
  readonly "Actual Rows": number
  readonly "Actual Loops": number
  readonly "Rows Removed by Filter"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}

const rowCount = 20_000
const limit = 20
const start = Date.UTC(2026, 0, 1)
const at = (second: number) => DateTime.unsafeMake(start + second * 1_000)

// The rows are spread so that each filter value matches thousands of them, as on a busy platform: a page then has
// many candidates beyond its cursor, and only a scan in index order that stops after the page stays cheap. Row `i`
// is at second `i`; another platform holds rows with the same keys, which no plan of this one may read. Incoming
// rows are received by the internal accounts that others send from, so an account both sends and receives.
const load = (platformId: string, other: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO transactions (id, platform_id, customer_id, platform_customer_id, sender_identifier,
        receiver_identifier, status, type, reference, posting_id, record, created_at)
      SELECT 'Transaction:' || md5(i::text || p.id), p.id, 'Customer:' || (i % 8),
             CASE WHEN i % 7 = 0 THEN NULL ELSE 'pc-' || (i % 8) END,
             CASE WHEN i % 6 = 0 THEN NULL ELSE 'InternalAccount:' || (i % 10) END,
             CASE WHEN i % 4 = 0 THEN 'InternalAccount:' || (i / 4 % 10) ELSE 'ExternalAccount:' || (i % 12) END,
             (ARRAY['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'PROCESSING',
                    'FAILED', 'PENDING', 'REFUNDED'])[1 + i % 10],
             CASE WHEN i % 4 = 0 THEN 'INCOMING' ELSE 'OUTGOING' END,
             CASE WHEN i % 3 = 0 THEN 'REF-' || (i % 4) END,
             'Posting:' || md5(i::text),
             jsonb_build_object('id', 'Transaction:' || md5(i::text || p.id), 'description', repeat('x', 400)),
             ${DateTime.formatIso(at(0))}::timestamptz + i * interval '1 second'
        FROM (VALUES (${platformId}), (${other})) AS p(id)
        CROSS JOIN generate_series(1, CASE WHEN p.id = ${platformId} THEN ${rowCount}::int ELSE ${rowCount / 4}::int END) AS i`.pipe(
      Effect.zipRight(sql`ANALYZE transactions`)
    )
  )

const filters: ReadonlyArray<readonly [name: string, filter: Omit<TransactionRepo.TransactionFilter, "sortOrder">]> = [
  ["no filter", {}],
  ["customerId", { customerId: "Customer:3" }],
  ["platformCustomerId", { platformCustomerId: "pc-3" }],
  // Sends in some rows and receives in others.
  ["accountIdentifier", { accountIdentifier: "InternalAccount:4" }],
  ["senderAccountIdentifier", { senderAccountIdentifier: "InternalAccount:5" }],
  ["receiverAccountIdentifier", { receiverAccountIdentifier: "ExternalAccount:7" }],
  ["a rare status", { status: "FAILED" }],
  ["a common status", { status: "COMPLETED" }],
  ["type", { type: "INCOMING" }],
  ["reference", { reference: "REF-1" }],
  ["startDate and endDate", { startDate: at(2_000), endDate: at(18_000) }]
]

const nodesOf = (node: PlanNode): ReadonlyArray<PlanNode> => [node, ...(node.Plans ?? []).flatMap(nodesOf)]

// Whether a sort below `node` reads a scan directly, rather than the output of a `Limit` (which bounds its input).
const sortsATable = (node: PlanNode, underSort = false): boolean => {
  if (node["Node Type"] === "Limit" && underSort) return false
  if (underSort && node["Relation Name"] !== undefined) return true
  const sorting = underSort || node["Node Type"] === "Sort" || node["Node Type"] === "Incremental Sort"
  return (node.Plans ?? []).some((child) => sortsATable(child, sorting))
}

/**
 * The plan of the transaction page on 20,000 rows of one platform (and 5,000 of another), analyzed: every filter,
 * in both orders, for a first page and for a page whose cursor is halfway through the table. Each is read by index
 * scans that start at the cursor and stop after about a page: no sequential or bitmap scan, no sort of the table.
 * Registered once per backend.
 */
export const register = (backend: string, storage: Layer.Layer<Storage.Services | SqlClient.SqlClient, unknown>) =>
  layer(storage, { timeout: "60 seconds", excludeTestServices: true })(`transaction list plans on ${backend}`, (it) => {
    it.effect("reads every filter's pages, first and deep, in both orders, through indexes from the cursor", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const platformId = Fixtures.platform().id
        yield* load(platformId, Fixtures.platform().id)
        const deep = {
          createdAt: at(rowCount / 2),
          id: (yield* sql<{ id: string }>`SELECT id FROM transactions
              WHERE platform_id = ${platformId} AND created_at = ${DateTime.formatIso(at(rowCount / 2))}::timestamptz`)[0]
            ?.id
        }
        expect(deep.id).toBeDefined()
        for (const [name, filter] of filters) {
          for (const sortOrder of ["desc", "asc"] as const) {
            for (const after of [Option.none(), Option.some({ createdAt: deep.createdAt, id: deep.id ?? "" })]) {
              const request = yield* Schema.encode(Listing)({
                platformId,
                filter: { ...filter, sortOrder },
                page: { limit, after }
              })
              const [explained] = yield* sql<{ "QUERY PLAN": ReadonlyArray<{ readonly Plan: PlanNode }> }>`EXPLAIN
                  (ANALYZE, FORMAT JSON) ${listStatement(sql, request)}`
              const plan = explained?.["QUERY PLAN"][0]?.Plan
              const label = `${name}, ${sortOrder}, ${Option.isSome(after) ? "deep" : "first"} page: ${JSON.stringify(plan)}`
              expect(plan, label).toBeDefined()
              if (plan === undefined) continue
              // Thousands of rows match on either side of the cursor: the page is full and has more.
              expect(plan["Actual Rows"], label).toBe(limit + 1)
              const scans = nodesOf(plan).filter((node) => node["Relation Name"] !== undefined)
              expect(scans.length, label).toBeGreaterThan(0)
              for (const scan of scans) {
                expect(["Index Scan", "Index Only Scan"], label).toContain(scan["Node Type"])
                if (Option.isSome(after)) expect(scan["Index Cond"], label).toContain("ROW(created_at, id)")
              }
              expect(sortsATable(plan), label).toBe(false)
              // A page reads about its own rows, whatever the depth: never a large part of the table.
              const read = scans.reduce(
                (sum, scan) => sum + scan["Actual Rows"] * scan["Actual Loops"] + (scan["Rows Removed by Filter"] ?? 0),
                0
              )
              expect(read, label).toBeLessThanOrEqual(4 * (limit + 1))
            }
          }
        }
      })
    )
  })
