import { Signer } from "@payrail/signer"
import { expect, it } from "vitest"
import { describeOverHttp } from "../support/OverHttp.js"
import * as WalletDevice from "../support/WalletDevice.js"

/** The wallet's signed PATCHes over HTTP: its privacy setting, and the customer email its EMAIL_OTP credential follows. */
describeOverHttp("embedded wallet patches", {}, (api) => {
  const { send, newWallet, login, signed } = WalletDevice.make(api)

  it("changes a wallet's privacy through the signed retry, and the account shows it", async () => {
    const wallet = await newWallet("privacy")
    const session = await login(wallet.emailCredentialId)
    const path = `/internal-accounts/${wallet.accountId}`
    expect((await send("GET", path)).body).toMatchObject({ privateEnabled: false })

    const first = await send("PATCH", path, { privateEnabled: true })
    expect(first.status).toBe(202)
    expect(first.body).toEqual({
      payloadToSign: expect.any(String),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String)
    })
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      operation: "UPDATE_WALLET",
      accountId: wallet.accountId
    })
    // Still unchanged until the retry.
    expect((await send("GET", path)).body).toMatchObject({ privateEnabled: false })

    const headers = Signer.signRetry({ challenge: first.body as never, privateKey: session.privateKey })
    const mismatch = await send("PATCH", path, { privateEnabled: false }, headers)
    expect(mismatch).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_BODY_MISMATCH" } })
    expect((await send("GET", path)).body).toMatchObject({ privateEnabled: false })

    const retry = await send("PATCH", path, { privateEnabled: true }, headers)
    expect(retry.status).toBe(200)
    const shown = await send("GET", path)
    expect(shown.body).toMatchObject({ id: wallet.accountId, type: "EMBEDDED_WALLET", privateEnabled: true })
    expect(retry.body).toEqual(shown.body)
    expect(await send("PATCH", path, { privateEnabled: true }, headers)).toMatchObject({
      status: 401,
      body: { code: "REQUEST_ID_REUSED" }
    })

    const back = await signed("PATCH", path, { privateEnabled: false }, session)
    expect(back).toMatchObject({ status: 200, body: { privateEnabled: false } })
  })

  it("refuses a non-wallet account, an unknown one and a body with other fields", async () => {
    const wallet = await newWallet("privacy-refusals")
    const customer = (await send("GET", `/internal-accounts/${wallet.accountId}`)).body.customerId
    const all = await send("GET", `/internal-accounts?customerId=${customer}`)
    const fiat = all.body.data.find((account: { type: string }) => account.type !== "EMBEDDED_WALLET")
    expect(fiat).toBeDefined()
    const notWallet = await send("PATCH", `/internal-accounts/${fiat.id}`, { privateEnabled: true })
    expect(notWallet).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
    const unknown = await send("PATCH", "/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000000", {
      privateEnabled: true
    })
    expect(unknown.status).toBe(404)
    const extra = await send("PATCH", `/internal-accounts/${wallet.accountId}`, { privateEnabled: true, status: "X" })
    expect(extra).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
    const wrongType = await send("PATCH", `/internal-accounts/${wallet.accountId}`, { privateEnabled: "yes" })
    expect(wrongType.status).toBe(400)
  })
})
