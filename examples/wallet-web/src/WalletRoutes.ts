import { randomBytes } from "node:crypto"
import { Schema } from "effect"
import type { Answer, Payrail } from "./Payrail.js"

/** What the sandbox puts in a new wallet: 100 USDC (6 decimals). */
export const openingBalance = 100_000_000

/**
 * The address of the customer's own wallet elsewhere, where withdrawals go. In the sandbox the last three characters
 * of an address pick the outcome; this one ends in none of the magic suffixes, so the withdrawal completes.
 */
export const withdrawalAddress = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

/** A refusal to show the page: the HTTP status and the API's error body (`code`, `reason`). */
export class RouteError extends Error {
  constructor(
    readonly status: number,
    readonly body: { readonly code: string; readonly reason: string }
  ) {
    super(`${body.code}: ${body.reason}`)
  }
}

/** One signed-up user of the host app, kept in the backend's memory (a real host keeps this in its own database). */
interface User {
  readonly customerId: string
  readonly walletId: string
  readonly externalAccountId: string
  /** The WebAuthn registration challenge issued and not yet answered (single use). */
  registrationChallenge?: string
  /** The passkey credential, once registered: its `AuthMethod` id and its WebAuthn credential id. */
  passkey?: { readonly id: string; readonly credentialId: string }
  /** The quotes this user created, so that only they are executed or looked at on their behalf. */
  readonly quotes: Map<string, string>
}

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
const Base64Url = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]*$/), Schema.maxLength(16_384))
const decode = <A, I>(schema: Schema.Schema<A, I>, value: unknown): A => {
  try {
    return Schema.decodeUnknownSync(schema, { onExcessProperty: "error" })(value)
  } catch (error) {
    throw new RouteError(400, { code: "INVALID_INPUT", reason: error instanceof Error ? error.message : String(error) })
  }
}

/** The API's answer when it has `status`, decoded by `schema`; any other answer is passed on to the page. */
const expectAnswer = <A, I>(answer: Answer, status: number, schema: Schema.Schema<A, I>): A => {
  if (answer.status !== status) {
    const body = Schema.decodeUnknownOption(Schema.Struct({ code: Schema.String, reason: Schema.String }))(answer.body)
    throw new RouteError(
      answer.status >= 400 ? answer.status : 502,
      body._tag === "Some" ? body.value : { code: "UNEXPECTED", reason: `Payrail answered ${answer.status}` }
    )
  }
  return Schema.decodeUnknownSync(schema)(answer.body)
}

const Balance = Schema.Struct({ amount: Schema.Number, currency: Schema.Struct({ code: Schema.String }) })
const Account = Schema.Struct({ id: Id, type: Schema.String, balance: Balance })
const Quote = Schema.Struct({
  id: Id,
  status: Schema.String,
  totalSendingAmount: Schema.Number,
  totalReceivingAmount: Schema.Number,
  transactionId: Schema.optional(Id),
  paymentInstructions: Schema.Array(
    Schema.Struct({
      accountOrWalletInfo: Schema.Struct({ accountType: Schema.String, payloadToSign: Schema.optional(Schema.String) })
    })
  )
})
const Attestation = Schema.Struct({
  credentialId: Base64Url,
  clientDataJson: Base64Url,
  attestationObject: Base64Url,
  transports: Schema.Array(Schema.String)
})
const Assertion = Schema.Struct({
  credentialId: Base64Url,
  clientDataJson: Base64Url,
  authenticatorData: Base64Url,
  signature: Base64Url,
  userHandle: Schema.optional(Schema.NullOr(Base64Url))
})

/** The page's JSON routes: `(method, path, body) → answer body`; a `RouteError` is a refusal. */
export type Routes = (method: string, path: string, body: unknown) => Promise<unknown>

/**
 * The host app's routes for the page. The page never sees the platform credentials: every Payrail call is made here.
 * Users are identified by the `userId` sign-up returns (a stand-in for the host's own login session).
 */
export const make = (payrail: Payrail): Routes => {
  const users = new Map<string, User>()
  const userOf = (userId: string): User => {
    const user = users.get(userId)
    if (user === undefined) throw new RouteError(404, { code: "USER_NOT_FOUND", reason: "Sign up first" })
    return user
  }
  const passkeyOf = (user: User) => {
    if (user.passkey === undefined)
      throw new RouteError(409, { code: "NO_PASSKEY", reason: "Register a passkey first" })
    return user.passkey
  }
  const wallet = async (user: User) =>
    expectAnswer(await payrail.call("GET", `/internal-accounts/${user.walletId}`), 200, Account).balance

  const signUp = async (body: unknown) => {
    const { name } = decode(
      Schema.Struct({ name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) }),
      body
    )
    // No email: the wallet then starts with no credential, so registering the first passkey needs no signed retry.
    const customer = expectAnswer(
      await payrail.call("POST", "/customers", { customerType: "INDIVIDUAL", fullName: name }),
      201,
      Schema.Struct({ id: Id })
    )
    const accounts = expectAnswer(
      await payrail.call(
        "GET",
        `/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=EMBEDDED_WALLET`
      ),
      200,
      Schema.Struct({ data: Schema.Array(Account) })
    )
    const [embedded] = accounts.data
    if (embedded === undefined) throw new RouteError(500, { code: "NO_WALLET", reason: "The customer has no wallet" })
    expectAnswer(
      await payrail.call("POST", `/sandbox/internal-accounts/${embedded.id}/fund`, { amount: openingBalance }),
      200,
      Account
    )
    const external = expectAnswer(
      await payrail.call("POST", "/customers/external-accounts", {
        customerId: customer.id,
        currency: "USDC",
        accountInfo: { accountType: "BASE_WALLET", address: withdrawalAddress }
      }),
      201,
      Schema.Struct({ id: Id })
    )
    const userId = randomBytes(16).toString("hex")
    users.set(userId, {
      customerId: customer.id,
      walletId: embedded.id,
      externalAccountId: external.id,
      quotes: new Map()
    })
    return { userId, customerId: customer.id, walletId: embedded.id, balance: await wallet(userOf(userId)) }
  }

  // WebAuthn registration: the backend issues the challenge (random, single use) and keeps it.
  const registrationChallenge = (body: unknown) => {
    const { userId } = decode(Schema.Struct({ userId: Id }), body)
    const user = userOf(userId)
    user.registrationChallenge = randomBytes(32).toString("hex")
    return { challenge: user.registrationChallenge, rpId: "localhost", userName: user.customerId }
  }

  const register = async (body: unknown) => {
    const request = decode(
      Schema.Struct({ userId: Id, nickname: Schema.String.pipe(Schema.maxLength(255)), attestation: Attestation }),
      body
    )
    const user = userOf(request.userId)
    const challenge = user.registrationChallenge
    if (challenge === undefined)
      throw new RouteError(409, { code: "NO_CHALLENGE", reason: "Ask for a challenge first" })
    delete user.registrationChallenge
    const method = expectAnswer(
      await payrail.call("POST", "/auth/credentials", {
        type: "PASSKEY",
        accountId: user.walletId,
        challenge,
        nickname: request.nickname,
        attestation: request.attestation
      }),
      201,
      Schema.Struct({ id: Id, type: Schema.Literal("PASSKEY"), credentialId: Base64Url })
    )
    user.passkey = { id: method.id, credentialId: method.credentialId }
    return { authMethodId: method.id, credentialId: method.credentialId }
  }

  // Login: the session's key is the page's own P-256 key (compressed: the client-held-key model).
  const loginChallenge = async (body: unknown) => {
    const { clientPublicKey, userId } = decode(Schema.Struct({ userId: Id, clientPublicKey: Schema.String }), body)
    const passkey = passkeyOf(userOf(userId))
    const challenge = expectAnswer(
      await payrail.call("POST", `/auth/credentials/${passkey.id}/challenge`, { clientPublicKey }),
      200,
      Schema.Struct({ challenge: Schema.String, requestId: Id, expiresAt: Schema.String })
    )
    return { ...challenge, credentialId: passkey.credentialId }
  }

  const loginVerify = async (body: unknown) => {
    const request = decode(Schema.Struct({ userId: Id, requestId: Id, assertion: Assertion }), body)
    const passkey = passkeyOf(userOf(request.userId))
    const session = expectAnswer(
      await payrail.call(
        "POST",
        `/auth/credentials/${passkey.id}/verify`,
        { type: "PASSKEY", assertion: request.assertion },
        { "request-id": request.requestId }
      ),
      200,
      Schema.Struct({ id: Id, expiresAt: Schema.String })
    )
    return { sessionId: session.id, expiresAt: session.expiresAt }
  }

  const quote = async (body: unknown) => {
    const { amount, userId } = decode(Schema.Struct({ userId: Id, amount: Schema.Int.pipe(Schema.positive()) }), body)
    const user = userOf(userId)
    const created = expectAnswer(
      await payrail.call("POST", "/quotes", {
        source: { sourceType: "ACCOUNT", accountId: user.walletId },
        destination: { destinationType: "ACCOUNT", accountId: user.externalAccountId },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: amount,
        description: "Withdrawal to my own wallet"
      }),
      201,
      Quote
    )
    const payloadToSign = created.paymentInstructions.find(
      (item) => item.accountOrWalletInfo.accountType === "EMBEDDED_WALLET"
    )?.accountOrWalletInfo.payloadToSign
    if (payloadToSign === undefined)
      throw new RouteError(502, { code: "NO_PAYLOAD", reason: "The quote carries no payloadToSign" })
    user.quotes.set(created.id, created.transactionId ?? "")
    return {
      quoteId: created.id,
      totalSendingAmount: created.totalSendingAmount,
      totalReceivingAmount: created.totalReceivingAmount,
      payloadToSign
    }
  }

  // The page's stamp over the quote's payloadToSign goes in Service-Wallet-Signature; the backend adds nothing. A quote
  // executes once (a second execute is refused), so the call needs no Idempotency-Key.
  const execute = async (body: unknown) => {
    const request = decode(Schema.Struct({ userId: Id, quoteId: Id, signature: Schema.String }), body)
    const user = userOf(request.userId)
    if (!user.quotes.has(request.quoteId))
      throw new RouteError(404, { code: "QUOTE_NOT_FOUND", reason: "No such quote" })
    const executed = expectAnswer(
      await payrail.call("POST", `/quotes/${request.quoteId}/execute`, undefined, {
        "service-wallet-signature": request.signature
      }),
      200,
      Quote
    )
    user.quotes.set(executed.id, executed.transactionId ?? "")
    return { quoteId: executed.id, status: executed.status, transactionId: executed.transactionId }
  }

  const status = async (body: unknown) => {
    const { quoteId, userId } = decode(Schema.Struct({ userId: Id, quoteId: Id }), body)
    const user = userOf(userId)
    const transactionId = user.quotes.get(quoteId)
    if (transactionId === undefined || transactionId === "")
      throw new RouteError(404, { code: "TRANSACTION_NOT_FOUND", reason: "No transaction for this quote" })
    const transaction = expectAnswer(
      await payrail.call("GET", `/transactions/${transactionId}`),
      200,
      Schema.Struct({ id: Id, status: Schema.String })
    )
    return { transactionId: transaction.id, status: transaction.status, balance: await wallet(user) }
  }

  const balance = async (body: unknown) => {
    const { userId } = decode(Schema.Struct({ userId: Id }), body)
    return { balance: await wallet(userOf(userId)) }
  }

  const routes: Record<string, (body: unknown) => unknown> = {
    "/api/signup": signUp,
    "/api/passkeys/challenge": registrationChallenge,
    "/api/passkeys": register,
    "/api/login/challenge": loginChallenge,
    "/api/login/verify": loginVerify,
    "/api/withdrawals": quote,
    "/api/withdrawals/execute": execute,
    "/api/withdrawals/status": status,
    "/api/balance": balance
  }
  return async (method, path, body) => {
    const route = routes[path]
    if (route === undefined || method !== "POST") throw new RouteError(404, { code: "NOT_FOUND", reason: path })
    return await route(body)
  }
}
