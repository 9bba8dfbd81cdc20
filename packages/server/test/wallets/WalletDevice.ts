import { checkedFetch } from "@payrail/http/test/support/OpenApiContract"
import { Signer } from "@payrail/signer"
import { createHash, generateKeyPairSync, sign } from "node:crypto"
import { expect } from "vitest"
import type { RunningServer } from "../ServerProcess.js"

/*
 * A phone app's view of the embedded wallet: plain `fetch` over a real socket (every answer checked against the
 * served OpenAPI document) and `@payrail/signer` for every key, bundle and stamp. The platform's backend, which holds
 * the API credentials, relays each request; here the test plays both.
 */

const api = "/2025-10-13"

/** An answer: its status and its parsed JSON body (`{}` when empty). */
export interface Answer {
  readonly status: number
  readonly body: Awaited<ReturnType<Response["json"]>>
}

/** Wallet headers or any others a request carries. */
export type Headers = Signer.SignedRetryHeaders | Readonly<Record<string, string>>

/** Sends one API request as the platform (the server's sandbox token) and reads its answer. */
export type Send = (method: string, path: string, body?: unknown, headers?: Headers) => Promise<Answer>

/** `Send` against `server`, each answer checked against the document the server serves. */
export const sendTo = (server: RunningServer): Send => {
  const checked = checkedFetch(fetch, server.baseUrl)
  return async (method, path, body, headers = {}) => {
    const response = await checked(`${server.baseUrl}${api}${path}`, {
      method,
      headers: {
        authorization: server.auth,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text.length === 0 ? {} : JSON.parse(text) }
  }
}

/** A wallet session as the device holds it: its id and the private key that signs for it. */
export interface Session {
  readonly id: string
  readonly privateKey: string
}

/** A customer with an email, its `EMBEDDED_WALLET` and the wallet's first credential (`EMAIL_OTP`). */
export interface Wallet {
  readonly customerId: string
  readonly accountId: string
  readonly emailCredentialId: string
}

/**
 * Creates a customer with an email (and `phoneNumber` when given) and finds its embedded wallet, which starts with one
 * EMAIL_OTP credential.
 */
export const newWallet = async (send: Send, name: string, phoneNumber?: string): Promise<Wallet> => {
  const email = `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`
  const customer = await send("POST", "/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Kim Lee",
    email,
    ...(phoneNumber === undefined ? {} : { phoneNumber })
  })
  expect(customer.status).toBe(201)
  const accounts = await send("GET", `/internal-accounts?customerId=${customer.body.id}&type=EMBEDDED_WALLET`)
  expect(accounts.status).toBe(200)
  expect(accounts.body.data).toHaveLength(1)
  const accountId: string = accounts.body.data[0].id
  const credentials = await send("GET", `/auth/credentials?accountId=${accountId}`)
  expect(credentials.body.data).toEqual([expect.objectContaining({ type: "EMAIL_OTP", nickname: email })])
  return { customerId: customer.body.id, accountId, emailCredentialId: credentials.body.data[0].id }
}

/** Where each leg of an OTP login goes (by default all to one server). */
export interface OtpLegs {
  readonly challenge: Send
  readonly verify: Send
  readonly retry: Send
}

/**
 * An OTP login: challenge, the sandbox code `000000` sealed with a fresh TEK to the target bundle (pinned to
 * `signerPublicKey`), verify (202), and the retry stamped by the TEK (200): the TEK is the session key.
 */
export const otpLogin = async (
  legs: Send | OtpLegs,
  credentialId: string,
  signerPublicKey: string,
  otpCode = "000000"
): Promise<Session> => {
  const on: OtpLegs = typeof legs === "function" ? { challenge: legs, verify: legs, retry: legs } : legs
  const challenge = await on.challenge("POST", `/auth/credentials/${credentialId}/challenge`)
  expect(challenge.status).toBe(200)
  const tek = Signer.generateKeyPair()
  const encryptedOtpBundle = await Signer.encryptOtpBundle({
    otpEncryptionTargetBundle: challenge.body.otpEncryptionTargetBundle,
    otpCode,
    publicKey: tek.publicKeyCompressed,
    signerPublicKey
  })
  const body = { type: challenge.body.type, encryptedOtpBundle }
  const first = await on.verify("POST", `/auth/credentials/${credentialId}/verify`, body)
  expect(first).toMatchObject({ status: 202, body: { requestId: expect.stringMatching(/^Request:/) } })
  const retry = await on.retry(
    "POST",
    `/auth/credentials/${credentialId}/verify`,
    body,
    Signer.signRetry({ challenge: first.body, privateKey: tek.privateKey })
  )
  expect(retry.status).toBe(200)
  expect(retry.body).not.toHaveProperty("encryptedSessionSigningKey")
  return { id: retry.body.id, privateKey: tek.privateKey }
}

/** Both legs of a signed retry: the first must answer 202; the answer of the retry stamped by `session` is returned. */
export const signed = async (
  send: Send,
  method: string,
  path: string,
  body: unknown,
  session: Session
): Promise<Answer> => {
  const first = await send(method, path, body)
  expect(first.status).toBe(202)
  return send(method, path, body, Signer.signRetry({ challenge: first.body, privateKey: session.privateKey }))
}

/** The ids of the wallet's listed (active) sessions. */
export const sessionIds = async (send: Send, accountId: string): Promise<Array<string>> => {
  const listed = await send("GET", `/auth/sessions?accountId=${accountId}`)
  expect(listed.status).toBe(200)
  return listed.body.data.map((session: { readonly id: string }) => session.id)
}

/** The sandbox platform's time now, in seconds (OIDC `iat` and `exp` are judged by it). */
export const platformSeconds = async (send: Send): Promise<number> => {
  const clock = await send("GET", "/sandbox/clock")
  expect(clock.status).toBe(200)
  return Math.floor(Date.parse(clock.body.currentTime) / 1000)
}

/** The `nonce` an OIDC token bound to `clientPublicKey` carries: SHA-256 hex of the exact key string. */
export const nonceOf = (clientPublicKey: string): string =>
  createHash("sha256").update(clientPublicKey, "utf8").digest("hex")

/**
 * An ES256 ID token from a key nobody publishes (the sandbox checks claims, not signatures): Google's issuer, one
 * audience, `claims` over the defaults.
 */
export const idToken = (claims: Readonly<Record<string, unknown>>): string => {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const input = `${encode({ alg: "ES256", typ: "JWT", kid: "device-test" })}.${encode({
    iss: "https://accounts.google.com",
    aud: "payrail-wallet-app.apps.googleusercontent.com",
    ...claims
  })}`
  const signature = sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" })
  return `${input}.${signature.toString("base64url")}`
}
