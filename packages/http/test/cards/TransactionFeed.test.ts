import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DateTime, Effect } from "effect"
import { CardTransactionRepo, type Platform } from "@payrail/core"
import { CardFixtures } from "@payrail/storage-testkit"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"
import { type NewCustomer, requestsOf } from "../support/Requests.js"

interface Row {
  readonly id: string
  readonly type: string
  readonly status: string
  readonly customerId: string
  readonly createdAt: string
  readonly accountId?: string
}

// `(createdAt, id)` newest first, as every list pages; ids compare by code unit, as the stores' "C" collation.
const newestFirst = (a: Row, b: Row) => {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt)
  return byTime !== 0 ? byTime : a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/**
 * `GET /transactions` with card transactions beside money transactions, over HTTP on every storage adapter: one
 * keyset order and cursor across both kinds in either order and at any page size, each filter on both kinds, a
 * card transaction read by its id; every answer checked against the OpenAPI document by the harness.
 */
for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`card transactions in GET /transactions on ${adapter.name}`, () => {
    let api: Harness
    let send: ReturnType<typeof requestsOf>["send"]
    let mine: NewCustomer
    let theirs: NewCustomer
    const cardRows: Array<string> = []
    let all: ReadonlyArray<Row> = []

    // Card transactions as the card network records them: on a card of `owner` funded by its USD account, created
    // now (two at one instant), with the given statuses.
    const insertCardRows = (owner: NewCustomer, statuses: ReadonlyArray<"AUTHORIZED" | "SETTLED" | "EXPIRED">) =>
      api.run(
        Effect.gen(function* () {
          const repo = yield* CardTransactionRepo.CardTransactionRepo
          const now = yield* DateTime.now
          const card = CardFixtures.card(api.platform.id as Platform.PlatformId, {
            overrides: { customerId: owner.id, fundingSource: owner.accounts["USD"] ?? "", platformCustomerId: "pc-x" }
          })
          for (const status of statuses) {
            const row = CardFixtures.cardTransaction(card, { overrides: { status, createdAt: now, updatedAt: now } })
            yield* repo.insert(row)
            cardRows.push(row.transaction.id)
          }
        })
      )

    const fund = async (accountId: string, amount: number) =>
      expect((await send("POST", `/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200)

    const list = async (query: string): Promise<{ data: Array<Row>; hasMore: boolean; nextCursor?: string }> => {
      const answer = await send("GET", `/transactions?${query}`)
      expect(answer.status).toBe(200)
      return answer.body
    }

    // Every page of the query, `limit` rows at a time: the ids in the order the pages gave them.
    const paged = async (query: string, limit: number) => {
      const ids: Array<string> = []
      let cursor: string | undefined
      for (let pages = 0; pages < 100; pages++) {
        const page = await list(`${query}&limit=${limit}${cursor === undefined ? "" : `&cursor=${cursor}`}`)
        expect(page.data.length).toBeLessThanOrEqual(limit)
        expect(page.nextCursor !== undefined).toBe(page.hasMore)
        ids.push(...page.data.map((row) => row.id))
        if (page.nextCursor === undefined) return ids
        cursor = page.nextCursor
      }
      throw new Error("more than 100 pages")
    }

    const idsOf = (rows: ReadonlyArray<Row>) => rows.map((row) => row.id)

    beforeAll(async () => {
      api = await makeHarness({ storage: adapter.storage() })
      send = requestsOf(api).send
      mine = await requestsOf(api).newCustomer({ fullName: "Kim Lee" })
      theirs = await requestsOf(api).newCustomer({ fullName: "Ada Byron" })
      await fund(mine.accounts["USD"] ?? "", 1_000)
      await insertCardRows(mine, ["AUTHORIZED", "SETTLED"])
      await fund(theirs.accounts["USD"] ?? "", 2_000)
      await insertCardRows(theirs, ["EXPIRED"])
      await fund(mine.accounts["USD"] ?? "", 3_000)
      await insertCardRows(mine, ["AUTHORIZED"])
      all = (await list("limit=100")).data
    }, 120_000)
    afterAll(() => api.dispose())

    it("lists every card and money transaction once, newest first, and pages them at any size in either order", async () => {
      expect(
        all
          .filter((row) => row.type === "CARD")
          .map((row) => row.id)
          .sort()
      ).toEqual([...cardRows].sort())
      expect(all.filter((row) => row.type === "INCOMING")).toHaveLength(3)
      expect(idsOf(all)).toEqual(idsOf([...all].sort(newestFirst)))
      for (const limit of [1, 2, 5]) {
        expect(await paged("sortOrder=desc", limit)).toEqual(idsOf(all))
        expect(await paged("sortOrder=asc", limit)).toEqual(idsOf(all).reverse())
      }
    })

    it("filters by type and status: CARD only card rows, INCOMING only money, a status the kinds that have it", async () => {
      const expected = (keep: (row: Row) => boolean) => idsOf(all.filter(keep))
      expect(await paged("type=CARD", 2)).toEqual(expected((row) => row.type === "CARD"))
      expect(await paged("type=INCOMING", 2)).toEqual(expected((row) => row.type === "INCOMING"))
      expect(await paged("type=OUTGOING", 2)).toEqual([])
      for (const status of ["AUTHORIZED", "SETTLED", "EXPIRED", "COMPLETED", "REFUNDED"]) {
        expect(await paged(`status=${status}`, 2)).toEqual(expected((row) => row.status === status))
      }
      expect(await paged("type=CARD&status=COMPLETED", 2)).toEqual([])
      expect(await paged("type=INCOMING&status=AUTHORIZED", 2)).toEqual([])
    })

    it("filters by customer, funding account, dates; receiver and reference match no card transaction", async () => {
      const expected = (keep: (row: Row) => boolean) => idsOf(all.filter(keep))
      expect(await paged(`customerId=${mine.id}`, 2)).toEqual(expected((row) => row.customerId === mine.id))
      expect(await paged("platformCustomerId=pc-x&type=CARD", 2)).toEqual(expected((row) => row.type === "CARD"))
      const account = mine.accounts["USD"] ?? ""
      const ofAccount = await paged(`accountIdentifier=${account}`, 2)
      expect(ofAccount.filter((id) => cardRows.includes(id))).toEqual(
        expected((row) => row.type === "CARD" && row.accountId === account)
      )
      expect(ofAccount.filter((id) => !cardRows.includes(id))).toEqual(
        await paged(`accountIdentifier=${account}&type=INCOMING`, 2)
      )
      expect(await paged(`senderAccountIdentifier=${account}&type=CARD`, 2)).toEqual(
        expected((row) => row.type === "CARD" && row.accountId === account)
      )
      expect((await paged(`receiverAccountIdentifier=${account}`, 2)).filter((id) => cardRows.includes(id))).toEqual([])
      expect(await paged("reference=anything&type=CARD", 2)).toEqual([])
      const oldest = all[all.length - 1]
      const newest = all[0]
      if (oldest === undefined || newest === undefined) throw new Error("no rows")
      expect(await paged(`startDate=${newest.createdAt}`, 1)).toEqual(
        expected((row) => Date.parse(row.createdAt) >= Date.parse(newest.createdAt))
      )
      expect(await paged(`endDate=${oldest.createdAt}&sortOrder=asc`, 1)).toEqual(
        expected((row) => Date.parse(row.createdAt) <= Date.parse(oldest.createdAt)).reverse()
      )
    })

    it("reads a card transaction by its id, 404 TRANSACTION_NOT_FOUND when unknown or another platform's", async () => {
      const card = all.find((row) => row.type === "CARD")
      if (card === undefined) throw new Error("no card row")
      const read = await send("GET", `/transactions/${card.id}`)
      expect(read.status).toBe(200)
      expect(read.body).toEqual(card)
      const unknown = `CardTransaction:${globalThis.crypto.randomUUID()}`
      const missing = await send("GET", `/transactions/${unknown}`)
      expect({ status: missing.status, code: missing.body.code }).toEqual({
        status: 404,
        code: "TRANSACTION_NOT_FOUND"
      })
      const elsewhere = await send("GET", `/transactions/${card.id}`, undefined, api.otherPlatformBasic)
      expect({ status: elsewhere.status, code: elsewhere.body.code }).toEqual({
        status: 404,
        code: "TRANSACTION_NOT_FOUND"
      })
      const money = all.find((row) => row.type === "INCOMING")
      expect((await send("GET", `/transactions/${money?.id ?? ""}`)).body).toEqual(money)
      expect((await send("GET", "/transactions/Card:not-an-id")).status).toBe(400)
    })
  })
}
