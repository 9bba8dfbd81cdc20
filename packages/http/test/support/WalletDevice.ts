import { Signer } from "@payrail/signer"
import { expect } from "vitest"
import type { Harness } from "./Harness.js"
import { base } from "./OverHttp.js"

/** An answer of the API: its status and its JSON body (`{}` when empty). */
export interface Answer {
  readonly status: number
  readonly body: Awaited<ReturnType<Response["json"]>>
}

/** A wallet session as the device holds it: its id and its signing key. */
export interface Session {
  readonly id: string
  readonly privateKey: string
}

/**
 * The device side of the embedded wallet flows over HTTP, with `@payrail/signer` (sandbox OTP code `000000`):
 * requests, a customer with its wallet, OTP logins and both legs of a signed retry. Use inside tests only.
 */
export const make = (api: Harness) => {
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Signer.SignedRetryHeaders | Readonly<Record<string, string>> = {}
  ): Promise<Answer> => {
    const response = await api.request(`${base}${path}`, {
      method,
      headers: Object.entries(headers),
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text.length === 0 ? {} : JSON.parse(text) }
  }

  // A customer with an email (and a phone), and its embedded wallet, which starts with an EMAIL_OTP credential.
  const newWallet = async (suffix: string) => {
    const customer = await send("POST", "/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Kim Lee",
      email: `wallet-${suffix}@example.com`,
      phoneNumber: "+14155550123"
    })
    expect(customer.status).toBe(201)
    const accounts = await send("GET", `/internal-accounts?customerId=${customer.body.id}&type=EMBEDDED_WALLET`)
    const accountId: string = accounts.body.data[0].id
    const credentials = await send("GET", `/auth/credentials?accountId=${accountId}`)
    expect(credentials.status).toBe(200)
    expect(credentials.body.data).toHaveLength(1)
    expect(credentials.body.data[0]).toMatchObject({ type: "EMAIL_OTP", nickname: `wallet-${suffix}@example.com` })
    return {
      customerId: customer.body.id as string,
      accountId,
      emailCredentialId: credentials.body.data[0].id as string
    }
  }

  // An OTP login: challenge, the code sealed with a fresh TEK, verify (202), then the retry stamped by the TEK.
  const login = async (credentialId: string): Promise<Session> => {
    const challenge = await send("POST", `/auth/credentials/${credentialId}/challenge`)
    expect(challenge.status).toBe(200)
    const tek = Signer.generateKeyPair()
    const encryptedOtpBundle = await Signer.encryptOtpBundle({
      otpEncryptionTargetBundle: challenge.body.otpEncryptionTargetBundle,
      otpCode: "000000",
      publicKey: tek.publicKeyCompressed
    })
    const body = { type: challenge.body.type, encryptedOtpBundle }
    const first = await send("POST", `/auth/credentials/${credentialId}/verify`, body)
    expect(first.status).toBe(202)
    expect(first.body).toMatchObject({ type: challenge.body.type, requestId: expect.stringMatching(/^Request:/) })
    const retry = await send(
      "POST",
      `/auth/credentials/${credentialId}/verify`,
      body,
      Signer.signRetry({ challenge: first.body as never, privateKey: tek.privateKey })
    )
    expect(retry.status).toBe(200)
    expect(retry.body).not.toHaveProperty("encryptedSessionSigningKey")
    return { id: retry.body.id, privateKey: tek.privateKey }
  }

  // Both legs of a signed retry, the second stamped by `session`.
  const signed = async (method: string, path: string, body: unknown, session: Session) => {
    const first = await send(method, path, body)
    expect(first.status).toBe(202)
    return send(
      method,
      path,
      body,
      Signer.signRetry({ challenge: first.body as never, privateKey: session.privateKey })
    )
  }

  return { send, newWallet, login, signed }
}
