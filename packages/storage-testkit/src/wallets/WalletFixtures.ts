import {
  AuthMethod,
  AuthSession,
  InternalAccount,
  OtpChallenge,
  SignedRequest,
  type SignedRequest as SignedRequestModule
} from "@payrail/core"
import { DateTime } from "effect"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

/** A fresh embedded wallet id (the wallet repositories do not require the account row to exist). */
export const walletId = (): InternalAccount.InternalAccountId =>
  InternalAccount.InternalAccountId.make(`InternalAccount:${uuid()}`)

/** A fresh credential id. */
export const authMethodId = (): AuthMethod.AuthMethodId => AuthMethod.AuthMethodId.make(`AuthMethod:${uuid()}`)

/** A `PASSKEY` credential of `accountId` created at `at(offsetMillis)`, with its key at `counter`. */
export const passkey = (
  accountId: InternalAccount.InternalAccountId,
  options: { readonly credentialId?: string; readonly counter?: number; readonly offsetMillis?: number } = {}
): AuthMethod.AuthMethod =>
  new AuthMethod.AuthMethod({
    id: authMethodId(),
    accountId,
    type: "PASSKEY",
    credentialId: options.credentialId ?? `cred-${uuid()}`,
    nickname: "Laptop ✓",
    passkey: { publicKey: `pQECAyYgASFYI${uuid()}`, counter: options.counter ?? 0, transports: ["internal", "hybrid"] },
    createdAt: Fixtures.at(options.offsetMillis ?? 0),
    updatedAt: Fixtures.at(options.offsetMillis ?? 0)
  })

/** An `OAUTH` credential of `accountId` for `identity` (a fresh subject at a fixed issuer by default). */
export const oauth = (
  accountId: InternalAccount.InternalAccountId,
  identity: AuthMethod.OauthIdentity = {
    issuer: "https://accounts.example.com",
    audience: "client-1",
    subject: `sub-${uuid()}`
  },
  offsetMillis = 0
): AuthMethod.AuthMethod =>
  new AuthMethod.AuthMethod({
    id: authMethodId(),
    accountId,
    type: "OAUTH",
    nickname: "ada@example.com",
    oauth: identity,
    createdAt: Fixtures.at(offsetMillis),
    updatedAt: Fixtures.at(offsetMillis)
  })

/** An `EMAIL_OTP` or `SMS_OTP` credential of `accountId`. */
export const otp = (
  accountId: InternalAccount.InternalAccountId,
  type: "EMAIL_OTP" | "SMS_OTP" = "EMAIL_OTP",
  offsetMillis = 0
): AuthMethod.AuthMethod =>
  new AuthMethod.AuthMethod({
    id: authMethodId(),
    accountId,
    type,
    nickname: type === "EMAIL_OTP" ? "ada@example.com" : "+15555550100",
    createdAt: Fixtures.at(offsetMillis),
    updatedAt: Fixtures.at(offsetMillis)
  })

/**
 * A session of `accountId` issued by `authMethodId`, created at `at(offsetMillis)` and expiring `lifetimeMillis`
 * later (the default lifetime by default), revoked at `revokedAt` if given.
 */
export const session = (options: {
  readonly accountId: InternalAccount.InternalAccountId
  readonly authMethodId?: AuthMethod.AuthMethodId
  readonly offsetMillis?: number
  readonly lifetimeMillis?: number
  readonly revokedAt?: DateTime.Utc
}): AuthSession.AuthSession => {
  const createdAt = Fixtures.at(options.offsetMillis ?? 0)
  return new AuthSession.AuthSession({
    id: AuthSession.AuthSessionId.make(`Session:${uuid()}`),
    accountId: options.accountId,
    type: "PASSKEY",
    authMethodId: options.authMethodId ?? authMethodId(),
    nickname: "Laptop ✓",
    publicKey: `02${uuid().replaceAll("-", "")}${uuid().replaceAll("-", "")}`,
    createdAt,
    updatedAt: createdAt,
    expiresAt: DateTime.addDuration(createdAt, options.lifetimeMillis ?? AuthSession.defaultLifetimeSeconds * 1_000),
    ...(options.revokedAt === undefined ? {} : { revokedAt: options.revokedAt })
  })
}

/**
 * A signed-retry challenge on `accountId` created at `at(offsetMillis)` and expiring `lifetimeMillis` later (the
 * default lifetime by default); with `full`, every optional field set.
 */
export const signedRequest = (options: {
  readonly accountId: InternalAccount.InternalAccountId
  readonly operation?: SignedRequestModule.Operation
  readonly offsetMillis?: number
  readonly lifetimeMillis?: number
  readonly full?: boolean
}): SignedRequest.SignedRequest => {
  const createdAt = Fixtures.at(options.offsetMillis ?? 0)
  const id = SignedRequest.SignedRequestId.make(`Request:${uuid()}`)
  return new SignedRequest.SignedRequest({
    id,
    accountId: options.accountId,
    operation: options.operation ?? "REVOKE_SESSION",
    targetId: `Session:${uuid()}`,
    bodyHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    payloadToSign: JSON.stringify({ requestId: id, note: 'é ✓ "quoted"' }),
    ...(options.full === true
      ? {
          type: "EMAIL_OTP" as const,
          signerPublicKey: `03${"ab".repeat(32)}`,
          clientPublicKey: `04${"cd".repeat(64)}`
        }
      : {}),
    createdAt,
    expiresAt: DateTime.addDuration(createdAt, options.lifetimeMillis ?? SignedRequest.lifetimeSeconds * 1_000)
  })
}

/** The open challenge of `authMethodId`, issued at `at(offsetMillis)` for ten minutes. */
export const otpChallenge = (
  authMethodId: AuthMethod.AuthMethodId,
  offsetMillis = 0,
  failedAttempts = 0
): OtpChallenge.OtpChallenge =>
  new OtpChallenge.OtpChallenge({
    authMethodId,
    codeDigest: uuid().replaceAll("-", "").repeat(2),
    sealedTargetKey: `sealed:${uuid()}`,
    issuedAt: Fixtures.at(offsetMillis),
    expiresAt: Fixtures.at(offsetMillis + 600_000),
    failedAttempts
  })
