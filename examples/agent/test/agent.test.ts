import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "../../../packages/server/test/ServerProcess.js"

const exampleDir = fileURLToPath(new URL("../", import.meta.url))
const api = "/2025-10-13"
let server: RunningServer
let dataDir: string
let credentials: { readonly PAYRAIL_CLIENT_ID: string; readonly PAYRAIL_CLIENT_SECRET: string }

type Json = Record<string, unknown>

/** Runs one of the example's scripts as its README does (`tsx src/<name>.ts`), against the test's server. */
const script = (name: string, env: Record<string, string> = {}) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", join("src", `${name}.ts`)],
      {
        cwd: exampleDir,
        env: { ...process.env, PAYRAIL_URL: server.baseUrl, ...credentials, ...env },
        timeout: 120_000
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })

const platformGet = async (path: string): Promise<Json> => {
  const response = await fetch(`${server.baseUrl}${api}${path}`, { headers: { authorization: server.auth } })
  expect(response.status).toBe(200)
  return (await response.json()) as Json
}

describe("examples/agent against the reference server", () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "payrail-example-agent-"))
    server = await startServer({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir })
    credentials = {
      PAYRAIL_CLIENT_ID: /client id\s+(\S+)/.exec(server.output())?.[1] ?? "",
      PAYRAIL_CLIENT_SECRET: /client secret\s+(\S+)/.exec(server.output())?.[1] ?? ""
    }
  }, 200_000)

  afterAll(async () => {
    await server?.stop()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  })

  it("installs an agent with a device code; it pays within its policy at once, and the platform approves the rest", async () => {
    const setup = await script("setup")
    expect(setup.stderr).toBe("")
    expect(setup.code).toBe(0)
    const code = /Device code: (PAYRAIL-AGENT-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(setup.stdout)?.[1]
    const agentId = /Agent (Agent:\S+) created/.exec(setup.stdout)?.[1]
    expect(code).toBeDefined()
    expect(agentId).toBeDefined()

    const agent = await script("agent", { PAYRAIL_DEVICE_CODE: code ?? "" })
    expect(agent.stderr).toBe("")
    expect(agent.code).toBe(0)
    expect(agent.stdout).toMatch(/Redeemed the device code: installed as "Expense assistant"/)
    expect(agent.stdout).toMatch(/for 25\.00 USD: executed at once \(action AgentAction:\S+, transaction Transaction:/)
    expect(agent.stdout).toMatch(/for 450\.00 USD: waiting for approval \(action AgentAction:\S+, until /)
    // The token is shown once, to the agent's process; the example never prints it.
    expect(`${setup.stdout}${agent.stdout}`).not.toMatch(/gat_[0-9a-f]{40}/)

    const pending = (await platformGet(`/agents/approvals?agentId=${agentId}`))["data"] as Array<Json>
    expect(pending.map((action) => action["status"])).toContain("PENDING_APPROVAL")

    const platform = await script("platform", { PAYRAIL_AGENT_ID: agentId ?? "" })
    expect(platform.stderr).toBe("")
    expect(platform.code).toBe(0)
    expect(platform.stdout).toMatch(/Approved AgentAction:\S+ for 450\.00 USD: transaction Transaction:/)

    const after = (await platformGet(`/agents/approvals?agentId=${agentId}`))["data"] as Array<Json>
    expect(after.filter((action) => action["status"] === "PENDING_APPROVAL")).toEqual([])
    const usage = (await platformGet(`/agents/${agentId}`))["usage"] as Json
    expect(usage).toMatchObject({ dailyTransactionCount: 2, dailySpend: 47_500 })

    // A device code works once.
    const again = await script("agent", { PAYRAIL_DEVICE_CODE: code ?? "" })
    expect(again.code).not.toBe(0)
    expect(again.stderr).toMatch(/answered 400 DEVICE_CODE_UNUSABLE/)

    expect((await script("platform")).stdout).toBe("Nothing waits for approval.\n")
  })
})
