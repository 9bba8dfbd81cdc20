import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

const policy = {
  permissions: ["VIEW_TRANSACTIONS", "CREATE_QUOTES"],
  defaultExecutionMode: "AUTO",
  spendingLimits: { currency: "USD", perTransactionLimit: 50_000, dailyLimit: 100_000, monthlyLimit: 1_000_000 }
}

/** Agent management, device codes and bearer authentication through HTTP on every storage adapter. */
for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`agents over HTTP on ${adapter.name}`, () => {
    let api: Harness
    beforeAll(async () => {
      api = await makeHarness({ storage: adapter.storage() })
    }, 60_000)
    afterAll(() => api.dispose())

    const send = async (method: string, path: string, body?: unknown, auth?: string | null) => {
      const response = await api.request(`${base}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(auth === undefined ? {} : { auth })
      })
      const text = await response.text()
      return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
    }

    const customer = async () =>
      (await send("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Ada Lovelace" })).body as {
        readonly id: string
      }

    const createAgent = async (extra: Record<string, unknown> = {}) => {
      const owner = await customer()
      const created = await send("POST", "/agents", { name: "Travel bot", customerId: owner.id, policy, ...extra })
      expect(created.status).toBe(201)
      return { owner, agent: created.body.agent, deviceCode: created.body.deviceCode }
    }

    const redeem = (code: string) =>
      send("POST", `/agents/device-codes/${encodeURIComponent(code)}/redeem`, undefined, null)

    const connect = async () => {
      const created = await createAgent()
      const redeemed = await redeem(created.deviceCode.code)
      expect(redeemed.status).toBe(200)
      return { ...created, token: redeemed.body.accessToken as string }
    }

    it("creates an agent with a one-hour device code; redeeming it answers a gat_ token once; /agents/me shows it", async () => {
      const { agent, deviceCode, owner } = await createAgent()
      expect(agent).toMatchObject({
        name: "Travel bot",
        customerId: owner.id,
        isPaused: false,
        isConnected: false,
        policy
      })
      expect(agent.usage).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 })
      expect(deviceCode.code).toMatch(
        /^PAYRAIL-AGENT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/
      )
      expect(deviceCode).toMatchObject({ agentId: agent.id, redeemed: false })
      const lifetime = Date.parse(deviceCode.expiresAt) - Date.parse(agent.createdAt)
      expect(lifetime).toBe(3600_000)

      expect((await send("GET", `/agents/device-codes/${deviceCode.code}/status`)).body).toEqual({
        code: deviceCode.code,
        redeemed: false
      })
      const redeemed = await redeem(deviceCode.code.toLowerCase())
      expect(redeemed.status).toBe(200)
      expect(redeemed.body).toMatchObject({ agentId: agent.id, agentName: "Travel bot", policy })
      expect(redeemed.body.accessToken).toMatch(/^gat_[0-9a-f]{40}$/)
      expect((await send("GET", `/agents/device-codes/${deviceCode.code}/status`)).body.redeemed).toBe(true)

      const again = await redeem(deviceCode.code)
      expect(again.status).toBe(400)
      expect(again.body).toMatchObject({ code: "DEVICE_CODE_UNUSABLE", details: { rule: "already_redeemed" } })

      const me = await send("GET", "/agents/me", undefined, `Bearer ${redeemed.body.accessToken}`)
      expect(me.status).toBe(200)
      expect(me.body).toMatchObject({ id: agent.id, isConnected: true, policy })
      expect((await send("GET", `/agents/${agent.id}`)).body.isConnected).toBe(true)
    })

    it("answers 404 for an unknown code, and for another platform's code on the status", async () => {
      const { deviceCode } = await createAgent()
      expect((await redeem("PAYRAIL-AGENT-0000-0000-0000")).status).toBe(404)
      expect((await redeem("nonsense")).body.code).toBe("NOT_FOUND")
      const theirs = await send(
        "GET",
        `/agents/device-codes/${deviceCode.code}/status`,
        undefined,
        api.otherPlatformBasic
      )
      expect(theirs.status).toBe(404)
    })

    it("refuses /agents/me with 401 for a missing, malformed, wrong or deleted agent's token", async () => {
      const { agent, token } = await connect()
      for (const auth of [null, "Bearer", "Bearer gat_nothex", `Bearer gat_${"0".repeat(40)}`, `Basic ${token}`]) {
        const refused = await send("GET", "/agents/me", undefined, auth)
        expect(refused.status).toBe(401)
        expect(refused.body.code).toBe("UNAUTHORIZED")
      }
      expect((await send("GET", "/agents/me", undefined, `Bearer ${token}`)).status).toBe(200)
      expect((await send("DELETE", `/agents/${agent.id}`)).status).toBe(204)
      const deleted = await send("GET", "/agents/me", undefined, `Bearer ${token}`)
      expect(deleted.status).toBe(401)
      expect((await send("GET", `/agents/${agent.id}`)).status).toBe(404)
    })

    it("lists with filters and pages; reads; 404 for unknown and other platforms' agents", async () => {
      const first = await createAgent()
      const second = await connect()
      const all = await send("GET", `/agents?limit=1`)
      expect(all.status).toBe(200)
      expect(all.body.data).toHaveLength(1)
      expect(all.body.hasMore).toBe(true)
      const next = await send("GET", `/agents?limit=1&cursor=${all.body.nextCursor}`)
      expect(next.body.data[0].id).not.toBe(all.body.data[0].id)
      const connected = await send("GET", `/agents?isConnected=true&customerId=${second.owner.id}`)
      expect(connected.body.data.map((agent: { readonly id: string }) => agent.id)).toEqual([second.agent.id])
      const mine = await send("GET", `/agents?customerId=${first.owner.id}&isPaused=false`)
      expect(mine.body.data.map((agent: { readonly id: string }) => agent.id)).toEqual([first.agent.id])
      expect((await send("GET", `/agents?isPaused=maybe`)).status).toBe(400)
      expect((await send("GET", `/agents/${first.agent.id}`)).body).toEqual(first.agent)
      expect((await send("GET", `/agents/${first.agent.id}`, undefined, api.otherPlatformBasic)).status).toBe(404)
      const unknown = await send("GET", "/agents/Agent:00000000-0000-4000-8000-000000000000")
      expect(unknown.status).toBe(404)
      expect(unknown.body).toMatchObject({ code: "NOT_FOUND", details: { agentId: expect.any(String) } })
      expect((await send("GET", "/agents/not-an-id")).status).toBe(400)
    })

    it("creates only with a valid body for a live customer of the platform", async () => {
      const owner = await customer()
      const missing = await send("POST", "/agents", { name: "Bot", customerId: owner.id })
      expect(missing.status).toBe(400)
      expect(missing.body.details.errors.map((error: { readonly field: string }) => error.field)).toContain("policy")
      const unknown = await send("POST", "/agents", {
        name: "Bot",
        customerId: "Customer:00000000-0000-4000-8000-000000000000",
        policy
      })
      expect(unknown.status).toBe(404)
      const foreign = await send(
        "POST",
        "/agents",
        { name: "Bot", customerId: owner.id, policy },
        api.otherPlatformBasic
      )
      expect(foreign.status).toBe(404)
      const accounts = await send("GET", `/customers/internal-accounts?customerId=${owner.id}`)
      const own = accounts.body.data[0].id as string
      const other = await send("GET", `/platform/internal-accounts`)
      const refused = await send("POST", "/agents", {
        name: "Bot",
        customerId: owner.id,
        policy: { ...policy, accountRestrictions: { allowedAccountIds: [own, other.body.data[0].id] } }
      })
      expect(refused.status).toBe(400)
      expect(refused.body.details.errors).toEqual([
        expect.objectContaining({ field: "policy.accountRestrictions.allowedAccountIds.1" })
      ])
    })

    it("renames, pauses and resumes (policy kept); an empty or unknown field is 400; 404 for unknown", async () => {
      const { agent } = await createAgent()
      const paused = await send("PATCH", `/agents/${agent.id}`, { isPaused: true })
      expect(paused.status).toBe(200)
      expect(paused.body).toMatchObject({ isPaused: true, policy })
      const renamed = await send("PATCH", `/agents/${agent.id}`, { name: "Renamed", isPaused: false })
      expect(renamed.body).toMatchObject({ isPaused: false, name: "Renamed", policy })
      const empty = await send("PATCH", `/agents/${agent.id}`, {})
      expect(empty.status).toBe(400)
      expect(empty.body.details.errors[0].field).toBe("body")
      expect((await send("PATCH", `/agents/${agent.id}`, { paused: true })).status).toBe(400)
      expect(
        (await send("PATCH", "/agents/Agent:00000000-0000-4000-8000-000000000000", { isPaused: true })).status
      ).toBe(404)
    })

    it("updates the policy partially; 400 for an empty update or a foreign account; 404 for unknown", async () => {
      const { agent } = await createAgent()
      const updated = await send("PATCH", `/agents/${agent.id}/policy`, {
        permissions: ["EXECUTE_QUOTES"],
        spendingLimits: { dailyLimit: null, perTransactionLimit: 7_000 }
      })
      expect(updated.status).toBe(200)
      expect(updated.body.policy).toEqual({
        permissions: ["EXECUTE_QUOTES"],
        defaultExecutionMode: "AUTO",
        spendingLimits: { currency: "USD", perTransactionLimit: 7_000, monthlyLimit: 1_000_000 }
      })
      expect((await send("PATCH", `/agents/${agent.id}/policy`, {})).status).toBe(400)
      const negative = await send("PATCH", `/agents/${agent.id}/policy`, { spendingLimits: { dailyLimit: -1 } })
      expect(negative.status).toBe(400)
      expect(negative.body.details.errors[0].field).toBe("spendingLimits.dailyLimit")
      const foreign = await send("PATCH", `/agents/${agent.id}/policy`, {
        accountRestrictions: { allowedAccountIds: ["InternalAccount:00000000-0000-4000-8000-000000000000"] }
      })
      expect(foreign.status).toBe(400)
      expect(foreign.body.details.errors[0].field).toBe("accountRestrictions.allowedAccountIds.0")
      const unknown = await send("PATCH", "/agents/Agent:00000000-0000-4000-8000-000000000000/policy", {
        permissions: []
      })
      expect(unknown.status).toBe(404)
    })

    it("issues a new device code (201) invalidating the old one; 409 once connected; deletes with 204", async () => {
      const { agent, deviceCode } = await createAgent()
      const issued = await send("POST", `/agents/${agent.id}/device-codes`)
      expect(issued.status).toBe(201)
      expect(issued.body).toMatchObject({ agentId: agent.id, redeemed: false })
      const old = await redeem(deviceCode.code)
      expect(old.status).toBe(400)
      expect(old.body.details.rule).toBe("invalidated")
      expect((await redeem(issued.body.code)).status).toBe(200)
      const conflict = await send("POST", `/agents/${agent.id}/device-codes`)
      expect(conflict.status).toBe(409)
      expect(conflict.body).toMatchObject({ code: "CONFLICT", details: { rule: "agent_already_connected" } })
      expect((await send("DELETE", `/agents/${agent.id}`)).status).toBe(204)
      expect((await send("DELETE", `/agents/${agent.id}`)).status).toBe(404)
      expect((await send("POST", `/agents/${agent.id}/device-codes`)).status).toBe(404)
    })

    it("needs Basic credentials (401) with MANAGE to change and VIEW to read (403)", async () => {
      const { agent, deviceCode } = await createAgent()
      expect((await send("GET", "/agents", undefined, null)).status).toBe(401)
      expect((await send("GET", `/agents/${agent.id}`, undefined, "Bearer gat_" + "0".repeat(40))).status).toBe(401)
      const viewer = await api.tokenWith(["VIEW"])
      expect((await send("GET", `/agents/${agent.id}`, undefined, viewer)).status).toBe(200)
      expect((await send("GET", `/agents/device-codes/${deviceCode.code}/status`, undefined, viewer)).status).toBe(200)
      for (const [method, path] of [
        ["POST", "/agents"],
        ["PATCH", `/agents/${agent.id}`],
        ["PATCH", `/agents/${agent.id}/policy`],
        ["DELETE", `/agents/${agent.id}`],
        ["POST", `/agents/${agent.id}/device-codes`]
      ] as const) {
        const refused = await send(method, path, method === "DELETE" ? undefined : {}, viewer)
        expect(refused.status, `${method} ${path}`).toBe(403)
        expect(refused.body.code).toBe("FORBIDDEN")
      }
      const transactor = await api.tokenWith(["TRANSACT"])
      expect((await send("GET", "/agents", undefined, transactor)).status).toBe(403)
    })

    it("of 20 concurrent redeems of one code exactly one answers a token", async () => {
      const { deviceCode } = await createAgent()
      const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(deviceCode.code)))
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      const refused = answers.filter((answer) => answer.status !== 200)
      expect(refused.map((answer) => [answer.status, answer.body.details.rule])).toEqual(
        Array.from({ length: 19 }, () => [400, "already_redeemed"])
      )
    })

    // Last: it moves the platform's clock for the rest of the suite.
    it("codes expire in the platform's time, and agent requests run in it", async () => {
      const { agent, deviceCode } = await createAgent()
      expect((await send("POST", "/sandbox/clock/advance", { seconds: 3600 })).status).toBe(200)
      const expired = await redeem(deviceCode.code)
      expect(expired.status).toBe(400)
      expect(expired.body.details.rule).toBe("expired")
      const fresh = await send("POST", `/agents/${agent.id}/device-codes`)
      const { accessToken } = (await redeem(fresh.body.code)).body
      expect((await send("POST", "/sandbox/clock/advance", { seconds: 2 * 86_400 })).status).toBe(200)
      const clock = (await send("GET", "/sandbox/clock")).body as { readonly currentTime: string }
      const me = await send("GET", "/agents/me", undefined, `Bearer ${accessToken}`)
      const tomorrow = new Date(Date.parse(clock.currentTime.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10)
      expect(me.body.usage.dailyResetDate).toBe(tomorrow)
    })
  })
}
