import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root, where `npm start` runs. */
export const root = fileURLToPath(new URL("../../../", import.meta.url))

/** A free TCP port on loopback. */
export const freePort = async (): Promise<number> => {
  const server = createServer()
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = server.address()
  server.close()
  if (address === null || typeof address === "string") throw new Error("no port")
  return address.port
}

/** A reference server started for a test, with what its banner printed. */
export interface PayrailServer {
  readonly port: number
  /** `http://127.0.0.1:<port>/2025-10-13`, as the banner prints it. */
  readonly apiBase: string
  readonly clientId: string
  readonly clientSecret: string
  /** The sandbox platform's first webhook signing secret, `whsec_…`. */
  readonly webhookSecret: string
  /** `Authorization: Basic …` of the sandbox platform's token. */
  readonly authorization: string
  /** Everything the process printed so far. */
  readonly output: () => string
  /** SIGTERM, then waits for the process to end, and removes its data directory. */
  readonly stop: () => Promise<void>
}

const valueAfter = (output: string, label: string): string =>
  new RegExp(`^\\s*${label}\\s+(\\S+)`, "m").exec(output)?.[1] ?? ""

/**
 * Starts the reference server on a free port with a fresh data directory and waits for its banner.
 * `how: "npm-start"` runs it as `npm start` does (`scripts/bootstrap.mjs start`: locked install, incremental build,
 * compiled JavaScript); `how: "source"` runs `packages/server/src/bin.ts serve` under tsx (no build needed).
 * `env` adds to this process's environment (`PAYRAIL_STORAGE=memory` for speed); `DATABASE_URL` is left out, so
 * the server uses its embedded store unless `env` says otherwise.
 */
export const startPayrailServer = async (
  how: "npm-start" | "source",
  env: Record<string, string> = {}
): Promise<PayrailServer> => {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "payrail-example-"))
  const { DATABASE_URL: _unused, ...inherited } = process.env
  const args =
    how === "npm-start"
      ? ["scripts/bootstrap.mjs", "start"]
      : ["--import", "tsx", "packages/server/src/bin.ts", "serve"]
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...inherited,
      NODE_OPTIONS: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      PAYRAIL_DATA_DIR: dataDir,
      LOG_LEVEL: "Warning",
      NO_COLOR: "1",
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, "exit")
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 280_000
  while (!/webhook secret\s+whsec_\S+/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`the server did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const clientId = valueAfter(output, "client id")
  const clientSecret = valueAfter(output, "client secret")
  return {
    port,
    apiBase: valueAfter(output, "API base URL"),
    clientId,
    clientSecret,
    webhookSecret: valueAfter(output, "webhook secret"),
    authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
    output: () => output,
    stop
  }
}
