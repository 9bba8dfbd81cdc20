import { Signer } from "@payrail/signer"
import { expect, it } from "vitest"
import { base, describeOverHttp } from "../support/OverHttp.js"
import * as WalletDevice from "../support/WalletDevice.js"
import type { Session } from "../support/WalletDevice.js"

/** The embedded wallet flows over HTTP, with `@payrail/signer` as the device (sandbox OTP code `000000`). */
describeOverHttp("embedded wallet authentication", {}, (api) => {
  const { send, newWallet, login, signed } = WalletDevice.make(api)

  it("logs in with the customer's email code, adds a credential, revokes across credentials, refreshes, exports", async () => {
    const wallet = await newWallet("flow")
    const first = await login(wallet.emailCredentialId)
    const sessions = await send("GET", `/auth/sessions?accountId=${wallet.accountId}`)
    expect(sessions.body.data.map((session: { id: string }) => session.id)).toEqual([first.id])
    expect(sessions.body.data[0]).not.toHaveProperty("encryptedSessionSigningKey")

    const added = await signed("POST", "/auth/credentials", { type: "SMS_OTP", accountId: wallet.accountId }, first)
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ type: "SMS_OTP", nickname: "+14155550123" })
    const second = await login(added.body.id)

    // A credential is revoked by a session of another credential: its own session is refused.
    const own = await signed("DELETE", `/auth/credentials/${wallet.emailCredentialId}`, undefined, first)
    expect(own).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
    const revoked = await signed("DELETE", `/auth/credentials/${wallet.emailCredentialId}`, undefined, second)
    expect(revoked.status).toBe(204)
    const left = await send("GET", `/auth/sessions?accountId=${wallet.accountId}`)
    expect(left.body.data.map((session: { id: string }) => session.id)).toEqual([second.id])

    const device = Signer.generateKeyPair()
    const refreshed = await signed(
      "POST",
      `/auth/sessions/${second.id}/refresh`,
      { clientPublicKey: device.publicKeyCompressed },
      second
    )
    expect(refreshed.status).toBe(201)
    const third: Session = { id: refreshed.body.id, privateKey: device.privateKey }

    const recipient = Signer.generateKeyPair()
    const exported = await signed(
      "POST",
      `/internal-accounts/${wallet.accountId}/export`,
      { clientPublicKey: recipient.publicKeyUncompressed },
      third
    )
    expect(exported.status).toBe(200)
    expect(exported.body).toMatchObject({ id: wallet.accountId, encryptedWalletCredentials: expect.any(String) })

    const gone = await signed("DELETE", `/auth/sessions/${third.id}`, undefined, third)
    expect(gone.status).toBe(204)
    expect((await send("GET", `/auth/sessions?accountId=${wallet.accountId}`)).body.data).toEqual([])
  })

  it("answers each refusal of a signed retry with its own 401 code", async () => {
    const wallet = await newWallet("refusals")
    const session = await login(wallet.emailCredentialId)
    const path = "/auth/credentials"
    const body = { type: "SMS_OTP", accountId: wallet.accountId }
    const challenge = (await send("POST", path, body)).body
    const headers = Signer.signRetry({ challenge: challenge as never, privateKey: session.privateKey })
    const codeOf = async (sent: unknown, retryHeaders: Signer.SignedRetryHeaders | Readonly<Record<string, string>>) =>
      (await send("POST", path, sent, retryHeaders)).body.code
    expect(await codeOf(body, { "Request-Id": challenge.requestId })).toBe("WALLET_SIGNATURE_MISSING")
    expect(await codeOf(body, { ...headers, "Service-Wallet-Signature": "not-a-stamp" })).toBe(
      "WALLET_SIGNATURE_MALFORMED"
    )
    expect(await codeOf({ ...body, type: "EMAIL_OTP" }, headers)).toBe("WALLET_SIGNATURE_BODY_MISMATCH")
    const stranger = Signer.signRetry({
      challenge: challenge as never,
      privateKey: Signer.generateKeyPair().privateKey
    })
    expect(await codeOf(body, stranger)).toBe("WALLET_SIGNATURE_INVALID")
    expect(await codeOf(body, { "Service-Wallet-Signature": headers["Service-Wallet-Signature"] })).toBe(
      "REQUEST_ID_MISSING"
    )
    // Grid's header name is an alias.
    const viaAlias = await send("POST", path, body, {
      "Grid-Wallet-Signature": headers["Service-Wallet-Signature"],
      "Request-Id": headers["Request-Id"]
    })
    expect(viaAlias.status).toBe(201)
    expect(await codeOf(body, headers)).toBe("REQUEST_ID_REUSED")
  })

  it("lets exactly one of 64 concurrent retries with one Request-Id succeed", async () => {
    const wallet = await newWallet("race")
    const session = await login(wallet.emailCredentialId)
    const body = { type: "SMS_OTP", accountId: wallet.accountId }
    const challenge = (await send("POST", "/auth/credentials", body)).body
    const headers = Signer.signRetry({ challenge: challenge as never, privateKey: session.privateKey })
    const answers = await Promise.all(
      Array.from({ length: 64 }, () => send("POST", "/auth/credentials", body, headers))
    )
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1)
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      expect(answer).toMatchObject({ status: 401, body: { code: "REQUEST_ID_REUSED" } })
    }
  })

  it("refuses a session of another wallet", async () => {
    const mine = await newWallet("mine")
    const theirs = await newWallet("theirs")
    const stranger = await login(theirs.emailCredentialId)
    const answer = await signed("POST", "/auth/credentials", { type: "SMS_OTP", accountId: mine.accountId }, stranger)
    expect(answer).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
  })

  it("rate-limits OTP re-issues with 429 and Retry-After", async () => {
    const wallet = await newWallet("limit")
    const statuses: Array<number> = []
    let retryAfter: string | null = null
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await api.request(`${base}/auth/credentials/${wallet.emailCredentialId}/challenge`, {
        method: "POST"
      })
      statuses.push(response.status)
      if (response.status === 429) retryAfter = response.headers.get("retry-after")
    }
    expect(statuses).toEqual([200, 200, 200, 429])
    expect(Number(retryAfter)).toBeGreaterThan(0)
  })

  it("lists nothing for an unknown account and refuses a malformed one", async () => {
    const unknown = await send(
      "GET",
      "/auth/credentials?accountId=InternalAccount:00000000-0000-4000-8000-000000000000"
    )
    expect(unknown).toMatchObject({ status: 200, body: { data: [] } })
    expect((await send("GET", "/auth/sessions?accountId=nope")).status).toBe(400)
  })
})
