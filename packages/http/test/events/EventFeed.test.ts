import { expect, it } from "vitest"
import { Effect } from "effect"
import { DomainEvent, Ids, Outbox } from "@payrail/core"
import { base, describeOverHttp } from "../support/OverHttp.js"

interface FeedPage {
  readonly data: ReadonlyArray<{ id: string; type: string; timestamp: string; data?: Record<string, unknown> }>
  readonly cursor: string
  readonly hasMore: boolean
}

// GET /webhooks/events: what `payrail webhooks listen` follows.
describeOverHttp("the event feed over HTTP", {}, (api) => {
  const read = async (query = "", auth?: string) => {
    const response = await api.request(`${base}/webhooks/events${query}`, auth === undefined ? {} : { auth })
    return { status: response.status, body: (await response.json()) as FeedPage & { code?: string } }
  }
  const append = (type: string, id: string) =>
    api.run(
      Effect.gen(function* () {
        const event = yield* DomainEvent.make(api.platform.id, type, { id }).pipe(Effect.provide(Ids.layer))
        yield* (yield* Outbox.Outbox).append(event)
        return event.id
      })
    )

  it("reads the events recorded after a cursor, in order, page by page, from 'now'", async () => {
    await append("CUSTOMER.CREATED", "Customer:before")
    const now = await read()
    expect(now.status).toBe(200)
    // From now: nothing yet, whatever happened before.
    expect(now.body).toMatchObject({ data: [], hasMore: false })
    const ids = []
    for (let index = 0; index < 5; index++) ids.push(await append("CUSTOMER.UPDATED", `Customer:${index}`))
    const first = await read(`?after=${now.body.cursor}&limit=3`)
    expect(first.body.data.map((event) => event.id)).toEqual(ids.slice(0, 3))
    expect(first.body.hasMore).toBe(true)
    expect(first.body.data[0]).toMatchObject({ type: "CUSTOMER.UPDATED", data: { id: "Customer:0" } })
    const second = await read(`?after=${first.body.cursor}&limit=3`)
    expect(second.body.data.map((event) => event.id)).toEqual(ids.slice(3))
    expect(second.body.hasMore).toBe(false)
    // Nothing new: the same cursor back.
    const idle = await read(`?after=${second.body.cursor}`)
    expect(idle.body).toEqual({ data: [], cursor: second.body.cursor, hasMore: false })
  })

  it("shows the sandbox test webhook as a TEST event without data, and no other platform's events", async () => {
    const now = await read()
    const sent = await api.request(`${base}/sandbox/webhooks/test`, {
      method: "POST",
      body: JSON.stringify({ url: "http://127.0.0.1:9/hooks" })
    })
    // Nobody listens on the discard port: the send fails, but the platform did emit the test webhook.
    expect(sent.status).toBe(400)
    const after = await read(`?after=${now.body.cursor}`)
    expect(after.body.data).toHaveLength(1)
    expect(after.body.data[0]?.type).toBe("TEST")
    expect(after.body.data[0]).not.toHaveProperty("data")
    const other = await api.request(`${base}/webhooks/events?after=${now.body.cursor}`, {
      auth: api.otherPlatformBasic
    })
    expect(((await other.json()) as FeedPage).data).toEqual([])
  })

  it("refuses a forged cursor with INVALID_INPUT naming after, and a token without VIEW", async () => {
    const forged = await read("?after=not-a-cursor")
    expect(forged.status).toBe(400)
    expect(forged.body.code).toBe("INVALID_INPUT")
    expect(JSON.stringify(forged.body)).toContain('"after"')
    const manage = await api.tokenWith(["MANAGE"])
    expect((await read("", manage)).status).toBe(403)
  })
})
