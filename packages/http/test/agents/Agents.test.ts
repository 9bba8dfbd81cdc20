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
  })
}
