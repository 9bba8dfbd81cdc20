import { Signer } from "@payrail/signer"
import { randomBytes } from "node:crypto"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect } from "vitest"
import { type RunningServer, startServer } from "../ServerProcess.js"
import { createTemporaryDatabase, type TemporaryDatabase } from "../TemporaryDatabase.js"
import { type Send, sendTo } from "./WalletDevice.js"

/** The WebAuthn relying party the device tests configure, and the page origin their passkeys are used from. */
export const rpId = "wallet.example.com"
export const origin = `https://${rpId}`

/** A reference server for the device tests, with what a device and a second instance need to know of it. */
export interface DeviceServer {
  readonly server: RunningServer
  readonly send: Send
  /** The environment it was started with: a second instance on the same database starts with it too. */
  readonly environment: Readonly<Record<string, string>>
  /** The bootstrapped sandbox platform's id (the `organizationId` export bundles name). */
  readonly platformId: string
  /**
   * The server's signer public key (uncompressed hex). No endpoint serves it: the operator configures the key and
   * ships its public half with the app, as here.
   */
  readonly signerPublicKey: string
}

/**
 * Starts `payrail serve` once for the file's tests (on a temporary PostgreSQL database when DATABASE_URL is set,
 * else in memory) with configured wallet keys, no request limit in the way, and the platform's passkeys set up by
 * `PATCH /config`; stops it and drops the database after them. The answer is readable inside tests and hooks.
 */
export const useDeviceServer = (prefix: string): DeviceServer => {
  let made: DeviceServer | undefined
  let database: TemporaryDatabase | undefined
  let dataDir = ""
  beforeAll(async () => {
    const databaseUrl = process.env.DATABASE_URL
    dataDir = await mkdtemp(join(tmpdir(), `payrail-${prefix}-`))
    if (databaseUrl !== undefined) database = await createTemporaryDatabase(databaseUrl, prefix)
    const signerKey = Signer.generateKeyPair()
    const environment = {
      PAYRAIL_DATA_DIR: dataDir,
      ...(database === undefined ? { PAYRAIL_STORAGE: "memory" } : { DATABASE_URL: database.url }),
      PAYRAIL_WALLET_MASTER_KEY: randomBytes(32).toString("hex"),
      PAYRAIL_WALLET_SIGNER_KEY: signerKey.privateKey,
      // 64 racers and whole flows from one address and token.
      PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "100000",
      PAYRAIL_TOKEN_REQUEST_BURST: "100000"
    }
    const server = await startServer(environment)
    const send = sendTo(server)
    const credentials = JSON.parse(await readFile(join(dataDir, "sandbox-credentials.json"), "utf8"))
    made = {
      server,
      send,
      environment,
      platformId: credentials.platformId,
      signerPublicKey: signerKey.publicKeyUncompressed
    }
    const configured = await send("PATCH", "/config", {
      embeddedWalletConfig: { appName: "Device test", passkeyRpId: rpId, passkeyOrigins: [origin] }
    })
    expect(configured.status).toBe(200)
    expect(configured.body.embeddedWalletConfig).toMatchObject({ passkeyRpId: rpId, passkeyOrigins: [origin] })
  }, 240_000)
  afterAll(async () => {
    await made?.server.stop()
    await database?.drop()
    if (dataDir !== "") await rm(dataDir, { recursive: true, force: true })
  })
  return new Proxy(Object.create(null) as DeviceServer, {
    get: (_, field) => {
      if (made === undefined) throw new Error("the device server starts before the tests run")
      return Reflect.get(made, field)
    }
  })
}
