import { createServer } from "node:net"

type Release = () => Promise<void>

const releases: Array<{ readonly label: string; readonly release: Release }> = []
let releasing: Promise<void> | undefined

/** Registers `release` to run when the bench ends, however it ends; releases run in reverse order of registration. */
export const defer = (label: string, release: Release): void => {
  releases.push({ label, release })
}

/** Runs every registered release once (later calls wait for the first), reporting but not stopping on failures. */
export const releaseAll = (): Promise<void> => {
  releasing ??= (async () => {
    for (let entry = releases.pop(); entry !== undefined; entry = releases.pop()) {
      await entry
        .release()
        .catch((error: unknown) => console.error(`could not release ${entry?.label}: ${String(error)}`))
    }
  })()
  return releasing
}

/**
 * Runs `main`, then releases everything it acquired: on success, on failure, and on Ctrl-C or SIGTERM (the
 * children share the terminal's process group and get the signal too; the releases wait for them to stop).
 */
export const runMain = (main: () => Promise<void>): void => {
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the servers and deleting the temporary data`)
    void releaseAll().then(() => process.exit(130))
  }
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)
  main()
    .catch((error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
      process.exitCode = 1
    })
    .finally(() => releaseAll())
    .finally(() => process.exit())
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))))
    })
  })

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A number from the environment, or `fallback` when unset; anything else than a positive number is refused. */
export const envNumber = (name: string, fallback: number): number => {
  const text = process.env[name]
  if (text === undefined || text === "") return fallback
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${text}`)
  return value
}
