import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))

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

export interface RunningServer {
  readonly baseUrl: string
  readonly port: number
  /** The server process's id, to read its resident memory from /proc. */
  readonly pid: number
  readonly output: () => string
  /** Basic auth header from the banner's sandbox credentials. */
  readonly auth: string
  /** Sends SIGTERM and resolves with the exit code. */
  readonly stop: () => Promise<number | null>
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>
  /** Sends SIGKILL (cleanup after a failed test). */
  readonly kill: () => void
}

/** Starts `payrail serve` as a user would, and waits for its banner. */
export const startServer = async (env: Record<string, string>): Promise<RunningServer> => {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", bin, "serve"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "Warning", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, "exit").then(([code]) => code as number | null)
  const deadline = Date.now() + 180_000
  while (!/client secret\s+\S+/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const clientId = /client id\s+(\S+)/.exec(output)?.[1] ?? ""
  const clientSecret = /client secret\s+(\S+)/.exec(output)?.[1] ?? ""
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    exited,
    kill: () => {
      if (child.exitCode === null) child.kill("SIGKILL")
    },
    output: () => output,
    auth: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
    stop: async () => {
      child.kill("SIGTERM")
      return exited
    }
  }
}
