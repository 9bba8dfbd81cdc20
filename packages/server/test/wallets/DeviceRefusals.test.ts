import { Signer } from "@payrail/signer"
import { SoftwareAuthenticator } from "@payrail/wallet-auth/test/helpers/authenticator"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { startServer } from "../ServerProcess.js"
import { origin, rpId, useDeviceServer } from "./DeviceServer.js"
import { type Headers, newWallet, otpLogin, type Send, sendTo, sessionIds, signed } from "./WalletDevice.js"

/*
 * Issue 11's refusals over a real socket (see DeviceFlow.test.ts): each 401 of a signed retry, 64 racers on one
 * Request-Id, expiry on the sandbox clock, and two server instances on one PostgreSQL database sharing wallet keys.
 */

const app = useDeviceServer("device_refusals")
const send: Send = (...args) => app.send(...args)

describe("a device's refused retries over a real socket", () => {
  it("answers every refusal of a signed retry with its own 401, and lets one of 64 racers win", async () => {
    const wallet = await newWallet(send, "refusals", "+14155550123")
    const session = await otpLogin(send, wallet.emailCredentialId, app.signerPublicKey)

    // A wrong one-time code.
    const otpChallenge = await send("POST", `/auth/credentials/${wallet.emailCredentialId}/challenge`)
    const wrongCode = await send("POST", `/auth/credentials/${wallet.emailCredentialId}/verify`, {
      type: "EMAIL_OTP",
      encryptedOtpBundle: await Signer.encryptOtpBundle({
        otpEncryptionTargetBundle: otpChallenge.body.otpEncryptionTargetBundle,
        otpCode: "123456",
        publicKey: Signer.generateKeyPair().publicKeyCompressed,
        signerPublicKey: app.signerPublicKey
      })
    })
    expect(wrongCode).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED", details: { check: "otp_code" } } })

    const body = { type: "SMS_OTP", accountId: wallet.accountId }
    const challenge = await send("POST", "/auth/credentials", body)
    expect(challenge).toMatchObject({ status: 202, body: { type: "SMS_OTP" } })
    const headers = Signer.signRetry({ challenge: challenge.body, privateKey: session.privateKey })
    const refusal = async (sent: unknown, retryHeaders: Headers) => {
      const answer = await send("POST", "/auth/credentials", sent, retryHeaders)
      expect(answer.status).toBe(401)
      return answer.body
    }
    expect(await refusal(body, { "Request-Id": headers["Request-Id"] })).toMatchObject({
      code: "WALLET_SIGNATURE_MISSING"
    })
    expect(await refusal(body, { ...headers, "Service-Wallet-Signature": "not-a-stamp" })).toMatchObject({
      code: "WALLET_SIGNATURE_MALFORMED",
      details: { part: expect.any(String) }
    })
    // A tampered body: the stamp is good, the body is not the one the challenge was issued for.
    expect(await refusal({ ...body, type: "EMAIL_OTP" }, headers)).toMatchObject({
      code: "WALLET_SIGNATURE_BODY_MISMATCH"
    })
    // A key that is no session of the wallet; then that key's signature passed off as the session's key.
    const strangerKey = Signer.generateKeyPair()
    const stranger = Signer.signRetry({ challenge: challenge.body, privateKey: strangerKey.privateKey })
    expect(await refusal(body, stranger)).toMatchObject({
      code: "WALLET_SIGNATURE_INVALID",
      details: { check: "session_key" }
    })
    const stampOf = (value: string) => JSON.parse(Buffer.from(value, "base64url").toString("utf8"))
    const forged = Buffer.from(
      JSON.stringify({
        ...stampOf(stranger["Service-Wallet-Signature"]),
        publicKey: stampOf(headers["Service-Wallet-Signature"]).publicKey
      })
    ).toString("base64url")
    expect(await refusal(body, { ...headers, "Service-Wallet-Signature": forged })).toMatchObject({
      code: "WALLET_SIGNATURE_INVALID",
      details: { check: "signature" }
    })
    expect(await refusal(body, { "Service-Wallet-Signature": headers["Service-Wallet-Signature"] })).toMatchObject({
      code: "REQUEST_ID_MISSING"
    })
    expect(await refusal(body, { ...headers, "Request-Id": `Request:${crypto.randomUUID()}` })).toMatchObject({
      code: "UNAUTHORIZED",
      details: { check: "request_id_unknown" }
    })

    // 64 concurrent retries with one Request-Id, each on its own connection: one adds the credential.
    const answers = await Promise.all(
      Array.from({ length: 64 }, () => send("POST", "/auth/credentials", body, headers))
    )
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1)
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      expect(answer).toMatchObject({ status: 401, body: { code: "REQUEST_ID_REUSED" } })
    }
    expect(await refusal(body, headers)).toMatchObject({ code: "REQUEST_ID_REUSED" })
    const credentials = await send("GET", `/auth/credentials?accountId=${wallet.accountId}`)
    expect(credentials.body.data.map((method: { readonly type: string }) => method.type).sort()).toEqual([
      "EMAIL_OTP",
      "SMS_OTP"
    ])
  }, 120_000)

  it("binds each retry to the keys allowed to sign it and to its action; a passkey assertion is used once", async () => {
    const wallet = await newWallet(send, "bound")
    const first = await otpLogin(send, wallet.emailCredentialId, app.signerPublicKey)
    const second = await otpLogin(send, wallet.emailCredentialId, app.signerPublicKey)
    const theirs = await otpLogin(send, (await newWallet(send, "theirs")).emailCredentialId, app.signerPublicKey)
    const refused = { status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } }

    // An OTP verify's retry is the TEK's alone, even against another active session of the wallet.
    const otp = await send("POST", `/auth/credentials/${wallet.emailCredentialId}/challenge`)
    const otpBody = {
      type: "EMAIL_OTP",
      encryptedOtpBundle: await Signer.encryptOtpBundle({
        otpEncryptionTargetBundle: otp.body.otpEncryptionTargetBundle,
        otpCode: "000000",
        publicKey: Signer.generateKeyPair().publicKeyCompressed,
        signerPublicKey: app.signerPublicKey
      })
    }
    expect(
      await signed(send, "POST", `/auth/credentials/${wallet.emailCredentialId}/verify`, otpBody, first)
    ).toMatchObject(refused)
    // A session is refreshed by itself only; a wallet's session is revoked by that wallet's sessions only.
    const refresh = { clientPublicKey: Signer.generateKeyPair().publicKeyCompressed }
    expect(await signed(send, "POST", `/auth/sessions/${first.id}/refresh`, refresh, second)).toMatchObject(refused)
    expect(await signed(send, "DELETE", `/auth/sessions/${first.id}`, undefined, theirs)).toMatchObject(refused)
    // A Request-Id answers the action it was issued for.
    const issued = await send("POST", `/auth/sessions/${first.id}/refresh`, refresh)
    const moved = await send(
      "DELETE",
      `/auth/sessions/${second.id}`,
      undefined,
      Signer.signRetry({ challenge: issued.body, privateKey: first.privateKey })
    )
    expect(moved).toMatchObject({
      status: 401,
      body: { code: "UNAUTHORIZED", details: { check: "request_for_other_action" } }
    })
    expect(await sessionIds(send, wallet.accountId)).toEqual(expect.arrayContaining([first.id, second.id]))
    // An export is sealed to an uncompressed key only.
    const compressed = await send("POST", `/internal-accounts/${wallet.accountId}/export`, refresh)
    expect(compressed).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })

    // A passkey login: without its Request-Id, replayed, or an old assertion for a new challenge.
    const authenticator = new SoftwareAuthenticator()
    const registration = randomBytes(32).toString("base64url")
    const added = await signed(
      send,
      "POST",
      "/auth/credentials",
      {
        type: "PASSKEY",
        accountId: wallet.accountId,
        challenge: registration,
        nickname: "laptop",
        attestation: authenticator.register({ challenge: registration, origin, rpId })
      },
      first
    )
    expect(added.status).toBe(201)
    const verifyPath = `/auth/credentials/${added.body.id}/verify`
    const challengeOf = async () =>
      (
        await send("POST", `/auth/credentials/${added.body.id}/challenge`, {
          clientPublicKey: Signer.generateKeyPair().publicKeyCompressed
        })
      ).body
    const login = await challengeOf()
    const assertion = { type: "PASSKEY", assertion: authenticator.assert({ challenge: login.challenge, origin, rpId }) }
    expect(await send("POST", verifyPath, assertion)).toMatchObject({
      status: 401,
      body: { code: "REQUEST_ID_MISSING" }
    })
    expect((await send("POST", verifyPath, assertion, { "Request-Id": login.requestId })).status).toBe(200)
    expect(await send("POST", verifyPath, assertion, { "Request-Id": login.requestId })).toMatchObject({
      status: 401,
      body: { code: "REQUEST_ID_REUSED" }
    })
    const again = await challengeOf()
    expect(await send("POST", verifyPath, assertion, { "Request-Id": again.requestId })).toMatchObject({
      status: 401,
      body: { code: "UNAUTHORIZED", details: { check: expect.stringMatching(/^passkey_/) } }
    })
  }, 120_000)

  it("refuses a challenge answered after 5 minutes, and a session past 15 minutes (sandbox clock)", async () => {
    const wallet = await newWallet(send, "expiry")
    const session = await otpLogin(send, wallet.emailCredentialId, app.signerPublicKey)
    const refresh = { clientPublicKey: Signer.generateKeyPair().publicKeyCompressed }
    const challenge = await send("POST", `/auth/sessions/${session.id}/refresh`, refresh)
    expect(challenge.status).toBe(202)
    const headers = Signer.signRetry({ challenge: challenge.body, privateKey: session.privateKey })
    expect((await send("POST", `/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: 1_000 })).status).toBe(
      200
    )
    const quote = await send("POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: wallet.accountId },
      destination: { destinationType: "ACCOUNT", accountId: (await newWallet(send, "expiry-payee")).accountId },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 500
    })
    expect(quote.status).toBe(201)
    expect((await send("POST", "/sandbox/clock/advance", { seconds: 301 })).status).toBe(200)
    // A lapsed wallet quote is refused on the first call: no challenge for the device to sign in vain.
    expect(await send("POST", `/quotes/${quote.body.id}/execute`)).toMatchObject({
      status: 400,
      body: { code: "QUOTE_EXPIRED" }
    })
    const late = await send("POST", `/auth/sessions/${session.id}/refresh`, refresh, headers)
    expect(late).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED", details: { check: "request_expired" } } })
    expect(await sessionIds(send, wallet.accountId)).toEqual([session.id])

    // 15 minutes after the login the session is gone: not listed, and its stamps are refused.
    expect((await send("POST", "/sandbox/clock/advance", { seconds: 600 })).status).toBe(200)
    expect(await sessionIds(send, wallet.accountId)).toEqual([])
    const exported = await signed(
      send,
      "POST",
      `/internal-accounts/${wallet.accountId}/export`,
      { clientPublicKey: Signer.generateKeyPair().publicKeyUncompressed },
      session
    )
    expect(exported).toMatchObject({
      status: 401,
      body: { code: "WALLET_SIGNATURE_INVALID", details: { check: "session_key" } }
    })
  }, 120_000)
})

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "a device flow across two server instances (DATABASE_URL)",
  () => {
    it("answers on one server the challenges the other issued, with one winner among racers on both", async () => {
      const other = await startServer({ ...app.environment })
      try {
        const there = sendTo(other)
        const wallet = await newWallet(send, "across", "+14155550123")
        const session = await otpLogin(
          { challenge: send, verify: there, retry: send },
          wallet.emailCredentialId,
          app.signerPublicKey
        )
        expect(await sessionIds(there, wallet.accountId)).toEqual([session.id])

        // Exported on the second server, exported again on the first: one secret, sealed under the shared key.
        const exportVia = async (first: Send, retry: Send) => {
          const recipient = Signer.generateKeyPair()
          const body = { clientPublicKey: recipient.publicKeyUncompressed }
          const path = `/internal-accounts/${wallet.accountId}/export`
          const challenge = await first("POST", path, body)
          expect(challenge.status).toBe(202)
          const exported = await retry(
            "POST",
            path,
            body,
            Signer.signRetry({ challenge: challenge.body, privateKey: session.privateKey })
          )
          expect(exported.status).toBe(200)
          return Signer.openExportBundle({
            exportBundle: exported.body.encryptedWalletCredentials,
            privateKey: recipient.privateKey,
            signerPublicKey: app.signerPublicKey,
            organizationId: app.platformId
          })
        }
        const mnemonic = await exportVia(send, there)
        expect(mnemonic.split(" ")).toHaveLength(12)
        expect(await exportVia(there, send)).toBe(mnemonic)

        // 64 retries with one Request-Id, half on each server: exactly one adds the credential.
        const body = { type: "SMS_OTP", accountId: wallet.accountId }
        const challenge = await there("POST", "/auth/credentials", body)
        const headers = Signer.signRetry({ challenge: challenge.body, privateKey: session.privateKey })
        const answers = await Promise.all(
          Array.from({ length: 64 }, (_, index) =>
            (index % 2 === 0 ? send : there)("POST", "/auth/credentials", body, headers)
          )
        )
        expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1)
        for (const answer of answers.filter((answer) => answer.status !== 201)) {
          expect(answer).toMatchObject({ status: 401, body: { code: "REQUEST_ID_REUSED" } })
        }
      } finally {
        await other.stop()
      }
    }, 300_000)
  }
)
