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

  it("changes an email tied to an EMAIL_OTP credential through the signed retry, the credential with it", async () => {
    const wallet = await newWallet("email-old")
    const session = await login(wallet.emailCredentialId)
    const path = `/customers/${wallet.customerId}`
    const body = { customerType: "INDIVIDUAL", email: "wallet-email-new@example.com" }
    const nicknames = async () =>
      (await send("GET", `/auth/credentials?accountId=${wallet.accountId}`)).body.data.map(
        (credential: { nickname: string }) => credential.nickname
      )

    const first = await send("PATCH", path, body)
    expect(first.status).toBe(202)
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      operation: "UPDATE_CUSTOMER_EMAIL",
      accountId: wallet.accountId,
      targetId: wallet.customerId
    })
    // A failed retry changes nothing: neither the customer nor its credential.
    const headers = Signer.signRetry({ challenge: first.body as never, privateKey: session.privateKey })
    const stranger = Signer.signRetry({
      challenge: first.body as never,
      privateKey: Signer.generateKeyPair().privateKey
    })
    expect(await send("PATCH", path, body, stranger)).toMatchObject({
      status: 401,
      body: { code: "WALLET_SIGNATURE_INVALID" }
    })
    expect(await send("PATCH", path, { ...body, email: "other@example.com" }, headers)).toMatchObject({
      status: 401,
      body: { code: "WALLET_SIGNATURE_BODY_MISMATCH" }
    })
    expect((await send("GET", path)).body.email).toBe("wallet-email-old@example.com")
    expect(await nicknames()).toEqual(["wallet-email-old@example.com"])

    const retry = await send("PATCH", path, body, headers)
    expect(retry).toMatchObject({ status: 200, body: { id: wallet.customerId, email: "wallet-email-new@example.com" } })
    expect((await send("GET", path)).body).toEqual(retry.body)
    expect(await nicknames()).toEqual(["wallet-email-new@example.com"])
    // The credential logs in on its new email.
    await login(wallet.emailCredentialId)

    // Other fields, and the same email again, need no signature.
    const renamed = await send("PATCH", path, { customerType: "INDIVIDUAL", fullName: "Kim Park" })
    expect(renamed).toMatchObject({ status: 200, body: { fullName: "Kim Park" } })
    const same = await send("PATCH", path, body)
    expect(same.status).toBe(200)
    // A first leg refuses what the update would refuse.
    const future = await send("PATCH", path, { ...body, email: "x@example.com", birthDate: "2999-01-01" })
    expect(future.status).toBe(400)
  })

  it("refuses an email another customer's EMAIL_OTP credential has, on either leg", async () => {
    const taken = await newWallet("email-taken")
    const mine = await newWallet("email-mine")
    const session = await login(mine.emailCredentialId)
    const path = `/customers/${mine.customerId}`
    const body = { customerType: "INDIVIDUAL", email: "wallet-email-taken@example.com" }
    expect(await send("PATCH", path, body)).toMatchObject({
      status: 409,
      body: { code: "EMAIL_OTP_EMAIL_ALREADY_EXISTS" }
    })
    const free = { customerType: "INDIVIDUAL", email: "wallet-email-free@example.com" }
    const first = await send("PATCH", path, free)
    expect(first.status).toBe(202)
    // Another customer takes the email between the legs: the retry is refused and nothing changes.
    const theirs = await signed("PATCH", `/customers/${taken.customerId}`, free, await login(taken.emailCredentialId))
    expect(theirs.status).toBe(200)
    const retry = await send(
      "PATCH",
      path,
      free,
      Signer.signRetry({ challenge: first.body as never, privateKey: session.privateKey })
    )
    expect(retry).toMatchObject({ status: 409, body: { code: "EMAIL_OTP_EMAIL_ALREADY_EXISTS" } })
    expect((await send("GET", path)).body.email).toBe("wallet-email-mine@example.com")
  })

  it("changes the email of a customer without an EMAIL_OTP credential at once", async () => {
    const created = await send("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "No Mail" })
    expect(created.status).toBe(201)
    const path = `/customers/${created.body.id}`
    const changed = await send("PATCH", path, { customerType: "INDIVIDUAL", email: "late@example.com" })
    expect(changed).toMatchObject({ status: 200, body: { email: "late@example.com" } })
    const accounts = await send("GET", `/internal-accounts?customerId=${created.body.id}&type=EMBEDDED_WALLET`)
    const credentials = await send("GET", `/auth/credentials?accountId=${accounts.body.data[0].id}`)
    expect(credentials.body.data).toEqual([])
  })
})
