import { describe, expect, it } from "@effect/vitest"
import { DateTime, Option } from "effect"
import { TransactionFeed } from "@payrail/core"

const desc = { sortOrder: "desc" } as const
const account = "InternalAccount:00000000-0000-4000-8000-000000000001"
const otherAccount = "InternalAccount:00000000-0000-4000-8000-000000000002"

describe("TransactionFeed filters", () => {
  it("reads both kinds without filters, only cards for CARD, only money for INCOMING and OUTGOING", () => {
    expect(Option.isSome(TransactionFeed.moneyFilter(desc))).toBe(true)
    expect(Option.isSome(TransactionFeed.cardFilter(desc))).toBe(true)
    expect(TransactionFeed.moneyFilter({ ...desc, type: "CARD" })).toEqual(Option.none())
    expect(Option.isSome(TransactionFeed.cardFilter({ ...desc, type: "CARD" }))).toBe(true)
    for (const type of ["INCOMING", "OUTGOING"] as const) {
      expect(TransactionFeed.cardFilter({ ...desc, type })).toEqual(Option.none())
      expect(Option.map(TransactionFeed.moneyFilter({ ...desc, type }), (filter) => filter.type)).toEqual(
        Option.some(type)
      )
    }
  })

  it("matches a status to the kinds that have it: COMPLETED money only, AUTHORIZED cards only, EXPIRED both", () => {
    const kinds = (status: TransactionFeed.FeedStatus) => [
      Option.isSome(TransactionFeed.moneyFilter({ ...desc, status })),
      Option.isSome(TransactionFeed.cardFilter({ ...desc, status }))
    ]
    expect(kinds("COMPLETED")).toEqual([true, false])
    expect(kinds("PENDING")).toEqual([true, false])
    expect(kinds("AUTHORIZED")).toEqual([false, true])
    expect(kinds("SETTLED")).toEqual([false, true])
    expect(kinds("EXCEPTION")).toEqual([false, true])
    expect(kinds("EXPIRED")).toEqual([true, true])
    expect(kinds("REFUNDED")).toEqual([true, true])
  })

  it("maps the customer, dates and the funding account to card rows; receiver and reference match none", () => {
    const startDate = DateTime.unsafeMake(1_000)
    const endDate = DateTime.unsafeMake(2_000)
    expect(
      TransactionFeed.cardFilter({
        sortOrder: "asc",
        customerId: "Customer:00000000-0000-4000-8000-000000000009",
        platformCustomerId: "pc-9",
        accountIdentifier: account,
        status: "SETTLED",
        startDate,
        endDate
      })
    ).toEqual(
      Option.some({
        customerId: "Customer:00000000-0000-4000-8000-000000000009",
        platformCustomerId: "pc-9",
        accountId: account,
        status: "SETTLED",
        startDate,
        endDate,
        sortOrder: "asc"
      })
    )
    expect(
      Option.map(
        TransactionFeed.cardFilter({ ...desc, senderAccountIdentifier: account }),
        (filter) => filter.accountId
      )
    ).toEqual(Option.some(account))
    expect(
      Option.map(
        TransactionFeed.cardFilter({ ...desc, senderAccountIdentifier: account, accountIdentifier: account }),
        (filter) => filter.accountId
      )
    ).toEqual(Option.some(account))
    expect(
      TransactionFeed.cardFilter({ ...desc, senderAccountIdentifier: account, accountIdentifier: otherAccount })
    ).toEqual(Option.none())
    expect(TransactionFeed.cardFilter({ ...desc, receiverAccountIdentifier: account })).toEqual(Option.none())
    expect(TransactionFeed.cardFilter({ ...desc, reference: "REF-1" })).toEqual(Option.none())
    expect(
      Option.map(TransactionFeed.moneyFilter({ ...desc, reference: "REF-1" }), (filter) => filter.reference)
    ).toEqual(Option.some("REF-1"))
  })
})
