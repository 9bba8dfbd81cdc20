import { Signer } from "@payrail/signer"
import { SoftwareAuthenticator } from "@payrail/wallet-auth/test/helpers/authenticator"
import { randomBytes } from "node:crypto"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "../ServerProcess.js"
import { createTemporaryDatabase, type TemporaryDatabase } from "../TemporaryDatabase.js"
import { newWallet, otpLogin, type Send, sendTo, type Session, sessionIds, signed } from "./WalletDevice.js"

/*
 * Issue 11's device flow against the reference server started as a user starts it (`payrail serve`, on PostgreSQL
 * when DATABASE_URL is set, else in memory), over a real socket, the device using only `@payrail/signer` and fetch.
 * The wallet keys are configured, as production requires: the device pins the signer key it was shipped with.
 */

const databaseUrl = process.env.DATABASE_URL
const rpId = "wallet.example.com"
const origin = `https://${rpId}`
const signerKey = Signer.generateKeyPair()
/** The server's signer public key: no endpoint serves it, so the app is configured with it (as here). */
const signerPublicKey = signerKey.publicKeyUncompressed

let dataDir = ""
let database: TemporaryDatabase | undefined
let environment: Record<string, string> = {}
let server: RunningServer | undefined
let send: Send
let platformId = ""

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "payrail-device-"))
  if (databaseUrl !== undefined) database = await createTemporaryDatabase(databaseUrl, "device")
  environment = {
    PAYRAIL_DATA_DIR: dataDir,
    ...(database === undefined ? { PAYRAIL_STORAGE: "memory" } : { DATABASE_URL: database.url }),
    PAYRAIL_WALLET_MASTER_KEY: randomBytes(32).toString("hex"),
    PAYRAIL_WALLET_SIGNER_KEY: signerKey.privateKey,
    // 64 racers and a whole flow from one address and token: no request limit in the way.
    PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "100000",
    PAYRAIL_TOKEN_REQUEST_BURST: "100000"
  }
  server = await startServer(environment)
  send = sendTo(server)
  platformId = JSON.parse(await readFile(join(dataDir, "sandbox-credentials.json"), "utf8")).platformId
  const configured = await send("PATCH", "/config", {
    embeddedWalletConfig: { appName: "Device test", passkeyRpId: rpId, passkeyOrigins: [origin] }
  })
  expect(configured.status).toBe(200)
  expect(configured.body.embeddedWalletConfig).toMatchObject({ passkeyRpId: rpId, passkeyOrigins: [origin] })
}, 240_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
  if (dataDir !== "") await rm(dataDir, { recursive: true, force: true })
})

const quoteFrom = (source: string, destination: string, amount: number) =>
  send("POST", "/quotes", {
    source: { sourceType: "ACCOUNT", accountId: source },
    destination: { destinationType: "ACCOUNT", accountId: destination },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount
  })

const payloadOf = (quote: Awaited<ReturnType<Send>>): string => {
  const [instruction] = quote.body.paymentInstructions
  expect(instruction.accountOrWalletInfo.accountType).toBe("EMBEDDED_WALLET")
  return instruction.accountOrWalletInfo.payloadToSign
}

describe("a device flow over a real socket with @payrail/signer", () => {
  it("OTP login, a passkey added and used, wallet quotes executed, refresh, revokes, and the export opened", async () => {
    const wallet = await newWallet(send, "device")
    const otp = await otpLogin(send, wallet.emailCredentialId, signerPublicKey)
    expect(await sessionIds(send, wallet.accountId)).toEqual([otp.id])

    // The platform's backend chooses the registration challenge; the authenticator answers it.
    const authenticator = new SoftwareAuthenticator()
    const registrationChallenge = randomBytes(32).toString("base64url")
    const passkeyBody = {
      type: "PASSKEY",
      accountId: wallet.accountId,
      challenge: registrationChallenge,
      nickname: "Kim's phone",
      attestation: authenticator.register({ challenge: registrationChallenge, origin, rpId })
    }
    const added = await signed(send, "POST", "/auth/credentials", passkeyBody, otp)
    expect(added).toMatchObject({ status: 201, body: { type: "PASSKEY", nickname: "Kim's phone" } })
    const passkeyId: string = added.body.id

    // Passkey login: the device key (compressed) is the session key; the assertion answers the challenge.
    const device = Signer.generateKeyPair()
    const loginChallenge = await send("POST", `/auth/credentials/${passkeyId}/challenge`, {
      clientPublicKey: device.publicKeyCompressed
    })
    expect(loginChallenge).toMatchObject({
      status: 200,
      body: { challenge: expect.any(String), requestId: expect.stringMatching(/^Request:/) }
    })
    const assertion = authenticator.assert({ challenge: loginChallenge.body.challenge, origin, rpId })
    const verified = await send(
      "POST",
      `/auth/credentials/${passkeyId}/verify`,
      { type: "PASSKEY", assertion },
      { "Request-Id": loginChallenge.body.requestId }
    )
    expect(verified.status).toBe(200)
    expect(verified.body).not.toHaveProperty("encryptedSessionSigningKey")
    const passkey: Session = { id: verified.body.id, privateKey: device.privateKey }

    // Fund the wallet; a quote from it to another customer's wallet, executed by the signed retry.
    expect(
      (await send("POST", `/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: 100_000 })).status
    ).toBe(200)
    const payee = await newWallet(send, "payee")
    const first = await quoteFrom(wallet.accountId, payee.accountId, 10_000)
    expect(first.status).toBe(201)
    const payload = payloadOf(first)
    const challenge = await send("POST", `/quotes/${first.body.id}/execute`)
    expect(challenge).toMatchObject({ status: 202, body: { payloadToSign: payload } })
    const missing = await send("POST", `/quotes/${first.body.id}/execute`, undefined, {
      "Request-Id": challenge.body.requestId
    })
    expect(missing).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_MISSING" } })
    const stranger = await otpLogin(send, (await newWallet(send, "stranger")).emailCredentialId, signerPublicKey)
    const foreign = await send(
      "POST",
      `/quotes/${first.body.id}/execute`,
      undefined,
      Signer.signRetry({ challenge: challenge.body, privateKey: stranger.privateKey })
    )
    expect(foreign).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
    const executed = await send(
      "POST",
      `/quotes/${first.body.id}/execute`,
      undefined,
      Signer.signRetry({ challenge: challenge.body, privateKey: passkey.privateKey })
    )
    expect(executed).toMatchObject({ status: 200, body: { id: first.body.id } })
    expect(executed.body.status).not.toBe("PENDING")

    // Another quote, executed with the stamp alone (no Request-Id); another wallet's stamp is refused first.
    const second = await quoteFrom(wallet.accountId, payee.accountId, 5_000)
    const secondPayload = payloadOf(second)
    const strangerStamp = Signer.stamp({ payloadToSign: secondPayload, privateKey: stranger.privateKey })
    const refused = await send("POST", `/quotes/${second.body.id}/execute`, undefined, {
      "Service-Wallet-Signature": strangerStamp
    })
    expect(refused).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
    const direct = await send("POST", `/quotes/${second.body.id}/execute`, undefined, {
      "Service-Wallet-Signature": Signer.stamp({ payloadToSign: secondPayload, privateKey: otp.privateKey })
    })
    expect(direct).toMatchObject({ status: 200, body: { id: second.body.id } })
    const balance = await send("GET", `/internal-accounts/${payee.accountId}`)
    expect(balance.body.balance.amount).toBe(first.body.totalReceivingAmount + second.body.totalReceivingAmount)

    // Refresh the passkey session onto a new device key (compressed): signed by that session.
    const next = Signer.generateKeyPair()
    const refreshed = await signed(
      send,
      "POST",
      `/auth/sessions/${passkey.id}/refresh`,
      { clientPublicKey: next.publicKeyCompressed },
      passkey
    )
    expect(refreshed.status).toBe(201)
    const current: Session = { id: refreshed.body.id, privateKey: next.privateKey }
    expect(await sessionIds(send, wallet.accountId)).toContain(current.id)

    // Revoke a session; revoke the OTP credential, signed by the passkey's session.
    expect((await signed(send, "DELETE", `/auth/sessions/${otp.id}`, undefined, current)).status).toBe(204)
    expect(await sessionIds(send, wallet.accountId)).not.toContain(otp.id)
    const otpLeft = await signed(send, "DELETE", `/auth/credentials/${wallet.emailCredentialId}`, undefined, current)
    expect(otpLeft.status).toBe(204)
    const credentials = await send("GET", `/auth/credentials?accountId=${wallet.accountId}`)
    expect(credentials.body.data.map((method: { readonly type: string }) => method.type)).toEqual(["PASSKEY"])

    // Export to a fresh uncompressed key, opened pinned to the signer key; a second export has the same secret.
    const exportOnce = async () => {
      const recipient = Signer.generateKeyPair()
      const exported = await signed(
        send,
        "POST",
        `/internal-accounts/${wallet.accountId}/export`,
        { clientPublicKey: recipient.publicKeyUncompressed },
        current
      )
      expect(exported).toMatchObject({ status: 200, body: { id: wallet.accountId } })
      return Signer.openExportBundle({
        exportBundle: exported.body.encryptedWalletCredentials,
        privateKey: recipient.privateKey,
        signerPublicKey,
        organizationId: platformId
      })
    }
    const mnemonic = await exportOnce()
    expect(mnemonic.split(" ")).toHaveLength(12)
    expect(mnemonic).toMatch(/^[a-z]+( [a-z]+){11}$/)
    expect(await exportOnce()).toBe(mnemonic)
  }, 120_000)
})
