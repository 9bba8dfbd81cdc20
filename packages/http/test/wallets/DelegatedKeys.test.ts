import { Signer } from "@payrail/signer"
import { expect, it } from "vitest"
import { describeOverHttp } from "../support/OverHttp.js"
import * as WalletDevice from "../support/WalletDevice.js"

/*
 * Delegated signing keys over HTTP on every storage adapter (docs/incoming-approvals.md): created through the
 * signed retry, listed, read and revoked; a quote of the wallet executed with the delegated key's stamp instead of a
 * session's, refused once the key is revoked or expired.
 */
describeOverHttp("delegated signing keys over HTTP", {}, (api) => {
  const device = WalletDevice.make(api)
  const { send } = device
  const unique = () => globalThis.crypto.randomUUID().slice(0, 8)

  const walletWithSession = async () => {
    const wallet = await device.newWallet(unique())
    const session = await device.login(wallet.emailCredentialId)
    return { ...wallet, session }
  }

  const createKey = async (
    wallet: { readonly accountId: string; readonly session: WalletDevice.Session },
    body: Record<string, unknown> = {}
  ) => {
    const server = Signer.generateKeyPair()
    const request = {
      internalAccountId: wallet.accountId,
      publicKey: server.publicKeyCompressed,
      nickname: "Card payments key",
      ...body
    }
    const created = await device.signed("POST", "/auth/delegated-keys", request, wallet.session)
    return { created, server, request }
  }

  const quote = async (source: string, destination: string, amount: number) => {
    const created = await send("POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: source },
      destination: { destinationType: "ACCOUNT", accountId: destination },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: amount
    })
    expect(created.status).toBe(201)
    const [instruction] = created.body.paymentInstructions
    expect(instruction.accountOrWalletInfo.accountType).toBe("EMBEDDED_WALLET")
    return { id: created.body.id as string, payload: instruction.accountOrWalletInfo.payloadToSign as string }
  }

  it("creates a key through the signed retry and executes the wallet's quotes with its stamp until revoked", async () => {
    const wallet = await walletWithSession()
    const payee = await device.newWallet(unique())
    expect(
      (await send("POST", `/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: 100_000 })).status
    ).toBe(200)
    const { created, server } = await createKey(wallet)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^DelegatedKey:/),
      accountId: wallet.accountId,
      publicKey: server.publicKeyCompressed.toLowerCase(),
      nickname: "Card payments key",
      status: "ACTIVE",
      scopes: ["EXECUTE_QUOTE"]
    })
    const keyId: string = created.body.id
    expect((await send("GET", `/auth/delegated-keys/${keyId}`)).body).toEqual(created.body)
    expect((await send("GET", `/auth/delegated-keys?accountId=${wallet.accountId}`)).body).toEqual({
      data: [created.body]
    })

    // The stamp alone, by the delegated key, executes a quote of the wallet: no session is involved.
    const first = await quote(wallet.accountId, payee.accountId, 10_000)
    const executed = await send("POST", `/quotes/${first.id}/execute`, undefined, {
      "Service-Wallet-Signature": Signer.stamp({ payloadToSign: first.payload, privateKey: server.privateKey })
    })
    expect(executed).toMatchObject({ status: 200, body: { id: first.id } })
    // And the signed retry, its second leg stamped by the delegated key.
    const second = await quote(wallet.accountId, payee.accountId, 5_000)
    const challenge = await send("POST", `/quotes/${second.id}/execute`)
    expect(challenge).toMatchObject({ status: 202, body: { payloadToSign: second.payload } })
    const retried = await send(
      "POST",
      `/quotes/${second.id}/execute`,
      undefined,
      Signer.signRetry({ challenge: challenge.body, privateKey: server.privateKey })
    )
    expect(retried).toMatchObject({ status: 200, body: { id: second.id } })

    // Revoked: at once, its stamps are refused; revoking again changes nothing.
    expect((await send("DELETE", `/auth/delegated-keys/${keyId}`)).status).toBe(204)
    expect((await send("DELETE", `/auth/delegated-keys/${keyId}`)).status).toBe(204)
    expect((await send("GET", `/auth/delegated-keys/${keyId}`)).body.status).toBe("REVOKED")
    const third = await quote(wallet.accountId, payee.accountId, 1_000)
    expect(
      await send("POST", `/quotes/${third.id}/execute`, undefined, {
        "Service-Wallet-Signature": Signer.stamp({ payloadToSign: third.payload, privateKey: server.privateKey })
      })
    ).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
    const payeeBalance = await send("GET", `/internal-accounts/${payee.accountId}`)
    expect(payeeBalance.body.balance.amount).toBeGreaterThan(0)
  })

  it("refuses a retry not stamped by a session of the wallet, and a second live key for the same card", async () => {
    const wallet = await walletWithSession()
    const server = Signer.generateKeyPair()
    const body = { internalAccountId: wallet.accountId, publicKey: server.publicKeyCompressed, nickname: "k" }
    const first = await send("POST", "/auth/delegated-keys", body)
    expect(first.status).toBe(202)
    expect(first.body).toEqual({
      payloadToSign: expect.any(String),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String)
    })
    // The key cannot authorize itself; another wallet's session cannot either.
    const self = await send(
      "POST",
      "/auth/delegated-keys",
      body,
      Signer.signRetry({ challenge: first.body, privateKey: server.privateKey })
    )
    expect(self).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
    const other = await walletWithSession()
    const foreign = await send(
      "POST",
      "/auth/delegated-keys",
      body,
      Signer.signRetry({ challenge: first.body, privateKey: other.session.privateKey })
    )
    expect(foreign).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
    const changed = await send(
      "POST",
      "/auth/delegated-keys",
      { ...body, nickname: "other" },
      Signer.signRetry({ challenge: first.body, privateKey: wallet.session.privateKey })
    )
    expect(changed).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_BODY_MISMATCH" } })
    expect(await send("POST", "/auth/delegated-keys", body, { "Request-Id": first.body.requestId })).toMatchObject({
      status: 401,
      body: { code: "WALLET_SIGNATURE_MISSING" }
    })

    const made = await send(
      "POST",
      "/auth/delegated-keys",
      body,
      Signer.signRetry({ challenge: first.body, privateKey: wallet.session.privateKey })
    )
    expect(made.status).toBe(201)
    // A second key for the wallet (no card) is refused on either leg, before anything is signed or consumed.
    const again = Signer.signRetry({ challenge: first.body, privateKey: wallet.session.privateKey })
    expect(await send("POST", "/auth/delegated-keys", body, again)).toMatchObject({ status: 409 })
    expect(await send("POST", "/auth/delegated-keys", body)).toMatchObject({
      status: 409,
      body: { code: "CONFLICT", details: { accountId: wallet.accountId, rule: "one_live_key_per_card" } }
    })
    // Another card of the same wallet gets a key of its own.
    const forCard = await createKey(wallet, { cardId: "Card:00000000-0000-4000-8000-000000000001" })
    expect(forCard.created).toMatchObject({
      status: 201,
      body: { cardId: "Card:00000000-0000-4000-8000-000000000001" }
    })
    const byCard = await send("GET", "/auth/delegated-keys?cardId=Card:00000000-0000-4000-8000-000000000001")
    expect(byCard.body.data.map((key: { id: string }) => key.id)).toContain(forCard.created.body.id)
  })

  it("answers every refusal of the delegated key endpoints with its status and code", async () => {
    const wallet = await walletWithSession()
    const key = Signer.generateKeyPair().publicKeyCompressed
    const invalid = await send("POST", "/auth/delegated-keys", {
      internalAccountId: wallet.accountId,
      publicKey: "04abc",
      nickname: "",
      scopes: ["MOVE_EVERYTHING"],
      extra: 1
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      "extra",
      "nickname",
      "publicKey",
      "scopes.0"
    ])
    const past = await send("POST", "/auth/delegated-keys", {
      internalAccountId: wallet.accountId,
      publicKey: key,
      nickname: "k",
      expiresAt: "2020-01-01T00:00:00Z"
    })
    expect(past).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
    expect(past.body.details.errors[0].field).toBe("expiresAt")
    const customer = await send("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Kim Lee" })
    const fiat = await send("GET", `/internal-accounts?customerId=${customer.body.id}&type=INTERNAL_FIAT`)
    const notWallet = await send("POST", "/auth/delegated-keys", {
      internalAccountId: fiat.body.data[0].id,
      publicKey: key,
      nickname: "k"
    })
    expect(notWallet).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
    const unknownAccount = await send("POST", "/auth/delegated-keys", {
      internalAccountId: "InternalAccount:00000000-0000-4000-8000-000000000000",
      publicKey: key,
      nickname: "k"
    })
    expect(unknownAccount.status).toBe(404)
    const unknown = "DelegatedKey:00000000-0000-4000-8000-000000000000"
    expect(await send("GET", `/auth/delegated-keys/${unknown}`)).toMatchObject({
      status: 404,
      body: { code: "NOT_FOUND" }
    })
    expect((await send("DELETE", `/auth/delegated-keys/${unknown}`)).status).toBe(404)
    expect((await send("GET", "/auth/delegated-keys/nope")).status).toBe(400)
    expect(await send("GET", "/auth/delegated-keys")).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
    expect((await send("GET", "/auth/delegated-keys?accountId=nope")).status).toBe(400)

    const { created } = await createKey(wallet)
    expect(created.status).toBe(201)
    const other = (path: string, method = "GET") =>
      api.request(`/2025-10-13${path}`, { method, auth: api.otherPlatformBasic })
    expect((await other(`/auth/delegated-keys/${created.body.id}`)).status).toBe(404)
    expect((await other(`/auth/delegated-keys/${created.body.id}`, "DELETE")).status).toBe(404)
    const listed = await other(`/auth/delegated-keys?accountId=${wallet.accountId}`)
    expect(await listed.json()).toEqual({ data: [] })
    const viewer = await api.tokenWith(["VIEW"])
    const asViewer = (path: string, method: string, body?: unknown) =>
      api.request(`/2025-10-13${path}`, {
        method,
        auth: viewer,
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    expect((await asViewer(`/auth/delegated-keys/${created.body.id}`, "GET")).status).toBe(200)
    expect((await asViewer(`/auth/delegated-keys/${created.body.id}`, "DELETE")).status).toBe(403)
    expect(
      (
        await asViewer("/auth/delegated-keys", "POST", {
          internalAccountId: wallet.accountId,
          publicKey: key,
          nickname: "k"
        })
      ).status
    ).toBe(403)
  })

  // Last: it moves the platform's sandbox clock.
  it("stops accepting a key's stamps at its expiry", async () => {
    const wallet = await walletWithSession()
    const payee = await device.newWallet(unique())
    expect((await send("POST", `/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: 10_000 })).status).toBe(
      200
    )
    const clock = await send("GET", "/sandbox/clock")
    const expiresAt = new Date(Date.parse(clock.body.currentTime) + 3_600_000).toISOString()
    const { created, server } = await createKey(wallet, { expiresAt })
    expect(created).toMatchObject({ status: 201, body: { expiresAt: expect.any(String) } })
    expect((await send("POST", "/sandbox/clock/advance", { seconds: 3_601 })).status).toBe(200)
    const late = await quote(wallet.accountId, payee.accountId, 1_000)
    expect(
      await send("POST", `/quotes/${late.id}/execute`, undefined, {
        "Service-Wallet-Signature": Signer.stamp({ payloadToSign: late.payload, privateKey: server.privateKey })
      })
    ).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })
  })
})
