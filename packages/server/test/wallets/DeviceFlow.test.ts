import { Signer } from "@payrail/signer"
import { SoftwareAuthenticator } from "@payrail/wallet-auth/test/helpers/authenticator"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { origin, rpId, useDeviceServer } from "./DeviceServer.js"
import {
  idToken,
  newWallet,
  nonceOf,
  otpLogin,
  platformSeconds,
  type Send,
  type Session,
  sessionIds,
  signed
} from "./WalletDevice.js"

/*
 * Issue 11's device flow against the reference server started as a user starts it (`payrail serve`, on PostgreSQL
 * when DATABASE_URL is set, else in memory), over a real socket, the device using only `@payrail/signer` and fetch.
 * The wallet keys are configured, as production requires: the device pins the signer key it was shipped with.
 */

const app = useDeviceServer("device_flow")
const send: Send = (...args) => app.send(...args)

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
    const otp = await otpLogin(send, wallet.emailCredentialId, app.signerPublicKey)
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
    // The session names its passkey's WebAuthn credential id, as the reference's sessions do; an OTP session none.
    expect(verified.body.credentialId).toBe(added.body.credentialId)
    expect(added.body.credentialId).toEqual(expect.any(String))
    const listed = await send("GET", `/auth/sessions?accountId=${encodeURIComponent(wallet.accountId)}`)
    const byId = new Map(
      (listed.body.data as ReadonlyArray<{ id: string; credentialId?: string }>).map((one) => [one.id, one])
    )
    expect(byId.get(verified.body.id)?.credentialId).toBe(added.body.credentialId)
    expect(byId.get(otp.id)).not.toHaveProperty("credentialId")
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
    const stranger = await otpLogin(send, (await newWallet(send, "stranger")).emailCredentialId, app.signerPublicKey)
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
    // Executed: a new unsigned execute is refused at once, with no challenge to sign.
    expect(await send("POST", `/quotes/${first.body.id}/execute`)).toMatchObject({
      status: 409,
      body: { code: "INVALID_STATE_TRANSITION" }
    })

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
        signerPublicKey: app.signerPublicKey,
        organizationId: app.platformId
      })
    }
    const mnemonic = await exportOnce()
    expect(mnemonic.split(" ")).toHaveLength(12)
    expect(mnemonic).toMatch(/^[a-z]+( [a-z]+){11}$/)
    expect(await exportOnce()).toBe(mnemonic)
  }, 120_000)

  it("adds an OAUTH credential with a sandbox ID token and logs in with it, nonce and iat checked", async () => {
    const wallet = await newWallet(send, "oauth")
    const otp = await otpLogin(send, wallet.emailCredentialId, app.signerPublicKey)
    const subject = `google-${crypto.randomUUID()}`
    const fresh = async (extra: Readonly<Record<string, unknown>> = {}) => {
      const now = await platformSeconds(send)
      return idToken({ sub: subject, email: "kim@example.com", iat: now, exp: now + 600, ...extra })
    }
    const added = await signed(
      send,
      "POST",
      "/auth/credentials",
      { type: "OAUTH", accountId: wallet.accountId, oidcToken: await fresh() },
      otp
    )
    expect(added).toMatchObject({ status: 201, body: { type: "OAUTH" } })
    const oauthId: string = added.body.id
    const verify = async (clientPublicKey: string, oidcToken: string) =>
      send("POST", `/auth/credentials/${oauthId}/verify`, { type: "OAUTH", oidcToken, clientPublicKey })

    const device = Signer.generateKeyPair()
    const wrongNonce = await verify(
      device.publicKeyUncompressed,
      await fresh({ nonce: nonceOf(Signer.generateKeyPair().publicKeyUncompressed) })
    )
    expect(wrongNonce).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED", details: { check: "oidc_nonce" } } })
    const stale = await verify(
      device.publicKeyUncompressed,
      await fresh({ nonce: nonceOf(device.publicKeyUncompressed), iat: (await platformSeconds(send)) - 600 })
    )
    expect(stale).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED", details: { check: "oidc_iat" } } })

    // The uncompressed key: the service generates the session key and seals it to the device.
    const verified = await verify(
      device.publicKeyUncompressed,
      await fresh({ nonce: nonceOf(device.publicKeyUncompressed) })
    )
    expect(verified).toMatchObject({ status: 200, body: { encryptedSessionSigningKey: expect.any(String) } })
    const sessionKey = await Signer.openSessionKeyBundle({
      encryptedSessionSigningKey: verified.body.encryptedSessionSigningKey,
      privateKey: device.privateKey
    })
    const oauth: Session = { id: verified.body.id, privateKey: sessionKey.privateKey }
    const refreshed = await signed(
      send,
      "POST",
      `/auth/sessions/${oauth.id}/refresh`,
      { clientPublicKey: Signer.generateKeyPair().publicKeyCompressed },
      oauth
    )
    expect(refreshed.status).toBe(201)
  }, 120_000)
})
