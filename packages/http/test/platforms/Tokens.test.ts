import { expect, it } from "vitest"
import { makeHarness } from "../support/Harness.js"
import { base, describeOverHttp } from "../support/OverHttp.js"

const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) })
const basicOf = (created: { clientId: string; clientSecret: string }) =>
  `Basic ${btoa(`${created.clientId}:${created.clientSecret}`)}`

describeOverHttp("API tokens over HTTP", {}, (api, adapter) => {
  it("creates a token whose secret is shown once and works at once; DELETE stops it", async () => {
    const response = await api.request(`${base}/tokens`, post({ name: "reporting", permissions: ["VIEW", "VIEW"] }))
    expect(response.status).toBe(201)
    const created = await response.json()
    expect(created).toMatchObject({
      id: expect.stringMatching(/^ApiToken:/),
      name: "reporting",
      permissions: ["VIEW"],
      clientId: expect.stringMatching(/^pk_/),
      clientSecret: expect.stringMatching(/^sk_sandbox_/)
    })
    expect(created.updatedAt).toBe(created.createdAt)
    const auth = basicOf(created)
    expect((await api.request(`${base}/config`, { auth })).status).toBe(200)

    const read = await (await api.request(`${base}/tokens/${created.id}`)).json()
    expect(read).toEqual({ ...created, clientSecret: undefined })
    expect(JSON.stringify(read)).not.toContain(created.clientSecret)
    const listed = await (await api.request(`${base}/tokens`)).json()
    expect(JSON.stringify(listed)).not.toContain(created.clientSecret)
    expect(JSON.stringify(listed)).not.toContain("secretHash")

    expect((await api.request(`${base}/tokens/${created.id}`, { method: "DELETE" })).status).toBe(204)
    expect((await api.request(`${base}/config`, { auth })).status).toBe(401)
    const gone = await api.request(`${base}/tokens/${created.id}`)
    expect(gone.status).toBe(404)
    expect(await gone.json()).toMatchObject({ code: "TOKEN_NOT_FOUND", details: { tokenId: created.id } })
    expect((await api.request(`${base}/tokens/${created.id}`, { method: "DELETE" })).status).toBe(404)
  })

  it("grants only a subset of the caller's permissions, and needs MANAGE to create or delete", async () => {
    const manager = await api.tokenWith(["MANAGE", "VIEW"])
    const escalation = await api.request(`${base}/tokens`, {
      ...post({ name: "mover", permissions: ["VIEW", "TRANSACT"] }),
      auth: manager
    })
    expect(escalation.status).toBe(403)
    expect(await escalation.json()).toMatchObject({
      code: "FORBIDDEN",
      details: { rule: "permissions_must_be_held", permissions: ["TRANSACT"] }
    })
    const subset = await api.request(`${base}/tokens`, {
      ...post({ name: "viewer", permissions: ["VIEW"] }),
      auth: manager
    })
    expect(subset.status).toBe(201)
    const viewerToken = await subset.json()
    const viewer = basicOf(viewerToken)
    const byViewer = await api.request(`${base}/tokens`, {
      ...post({ name: "x", permissions: ["VIEW"] }),
      auth: viewer
    })
    expect(byViewer.status).toBe(403)
    expect(await byViewer.json()).toMatchObject({ details: { requiredPermission: "MANAGE" } })
    expect((await api.request(`${base}/tokens/${viewerToken.id}`, { auth: viewer })).status).toBe(200)
    expect((await api.request(`${base}/tokens/${viewerToken.id}`, { method: "DELETE", auth: viewer })).status).toBe(403)
  })

  it("refuses invalid requests with field errors", async () => {
    const response = await api.request(`${base}/tokens`, post({ name: "", permissions: ["ROOT"], extra: 1 }))
    expect(response.status).toBe(400)
    const fields = (await response.json()).details.errors.map((error: { field: string }) => error.field)
    expect(fields).toEqual(expect.arrayContaining(["name", "permissions.0", "extra"]))
    expect((await api.request(`${base}/tokens`, post({ name: "none", permissions: [] }))).status).toBe(400)
    expect((await api.request(`${base}/tokens/not-a-token`)).status).toBe(400)
  })

  it("lists the platform's tokens newest first in pages, never another platform's", async () => {
    const fresh = await makeHarness({ storage: adapter.storage() })
    try {
      for (const name of ["a", "b", "c"]) {
        expect((await fresh.request(`${base}/tokens`, post({ name, permissions: ["VIEW"] }))).status).toBe(201)
      }
      // The harness's own token plus three.
      const first = await (await fresh.request(`${base}/tokens?limit=2`)).json()
      expect(first).toMatchObject({ hasMore: true, totalCount: 4 })
      const names = (page: { data: ReadonlyArray<{ name: string }> }) => page.data.map((token) => token.name)
      const second = await (
        await fresh.request(`${base}/tokens?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)
      ).json()
      expect(second).toMatchObject({ hasMore: false, totalCount: 4 })
      expect([...names(first), ...names(second)].sort()).toEqual(["a", "b", "c", "test"])
      const created = [...first.data, ...second.data].map((token: { createdAt: string }) => token.createdAt)
      expect(created).toEqual([...created].sort().reverse())
      const theirs = await (await fresh.request(`${base}/tokens`, { auth: fresh.otherPlatformBasic })).json()
      expect(theirs.totalCount).toBe(1)
      const mine = first.data[0].id
      expect((await fresh.request(`${base}/tokens/${mine}`, { auth: fresh.otherPlatformBasic })).status).toBe(404)
      expect(
        (await fresh.request(`${base}/tokens/${mine}`, { method: "DELETE", auth: fresh.otherPlatformBasic })).status
      ).toBe(404)
      expect((await fresh.request(`${base}/tokens/${mine}`)).status).toBe(200)
    } finally {
      await fresh.dispose()
    }
  })

  it("lets a token delete itself, after which it is refused", async () => {
    const created = await (await api.request(`${base}/tokens`, post({ name: "self", permissions: ["MANAGE"] }))).json()
    const auth = basicOf(created)
    expect((await api.request(`${base}/tokens/${created.id}`, { method: "DELETE", auth })).status).toBe(204)
    expect(
      (await api.request(`${base}/tokens`, { ...post({ name: "y", permissions: ["MANAGE"] }), auth })).status
    ).toBe(401)
  })
})
