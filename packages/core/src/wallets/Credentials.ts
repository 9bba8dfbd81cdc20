import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AuthMethod, AuthMethodRepo, type InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import { CustomerRepo } from "../customers/index.js"
import { Ids, InvalidInput, ResourceId, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { AuthSessionRepo } from "./AuthSessionRepo.js"
import { OtpChallengeRepo } from "./OtpChallengeRepo.js"
import type { CreateCredentialRequest } from "./CredentialRequest.js"
import * as OauthIssuers from "./OauthIssuers.js"
import { OidcTokens } from "./OidcTokens.js"
import { Passkeys } from "./Passkeys.js"
import * as RelyingParties from "./RelyingParties.js"
import { isRetry, type RetryRefused, SignedRetry, type WalletHeaders } from "./SignedRetry.js"
import * as WalletAccounts from "./WalletAccounts.js"
import { AuthMethodNotFound, CredentialAlreadyExists, LastCredential, type WalletAuthFailed } from "./WalletErrors.js"
import * as WalletStep from "./WalletStep.js"

type Failure =
  RetryRefused | WalletAuthFailed | CredentialAlreadyExists | InvalidInput.InvalidInput | StoreFailure.StoreFailure

/**
 * The credentials of embedded wallets: listing, adding and revoking. Adding to a wallet that has a credential, and
 * every revocation, go through the signed retry (a 202 challenge, then the retry stamped by an active session); a
 * wallet's first credential needs none. The uniqueness rules (one `EMAIL_OTP`, one `SMS_OTP`, a passkey once, an
 * OAuth identity once) and "at least one credential remains" hold under concurrency: the store enforces them.
 */
export class Credentials extends Context.Tag("@payrail/core/Credentials")<
  Credentials,
  {
    /** The wallet's credentials, oldest first (empty for an unknown account: the reference's behaviour). */
    readonly list: (
      platform: Platform.Platform,
      accountId: InternalAccount.InternalAccountId
    ) => Effect.Effect<ReadonlyArray<AuthMethod.AuthMethod>, StoreFailure.StoreFailure>
    readonly create: (
      platform: Platform.Platform,
      request: CreateCredentialRequest,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<AuthMethod.AuthMethod>, Failure | AccountFailure>
    /** Revokes the credential and every session it issued; the retry must be signed by another credential's session. */
    readonly revoke: (
      platform: Platform.Platform,
      id: AuthMethod.AuthMethodId,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<void>, Failure | AuthMethodNotFound | LastCredential>
  }
>() {}

type AccountFailure = Effect.Effect.Error<ReturnType<typeof WalletAccounts.find>>

export const layer = Layer.effect(
  Credentials,
  Effect.gen(function* () {
    const methods = yield* AuthMethodRepo.AuthMethodRepo
    const sessions = yield* AuthSessionRepo
    const otpChallenges = yield* OtpChallengeRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const retry = yield* SignedRetry
    const oidc = yield* OidcTokens
    const passkeys = yield* Passkeys
    const unitOfWork = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const accounts = yield* InternalAccountRepo.InternalAccountRepo

    // The contact an OTP credential sends codes to: the wallet owner's email or phone.
    const contactOf = (
      platform: Platform.Platform,
      account: InternalAccount.InternalAccount,
      type: "EMAIL_OTP" | "SMS_OTP"
    ) =>
      Effect.gen(function* () {
        const owner =
          account.customerId === undefined ? Option.none() : yield* customers.findById(platform.id, account.customerId)
        const customer = Option.map(owner, (stored) => stored.customer)
        const contact = Option.flatMap(customer, (found) =>
          Option.fromNullable(type === "EMAIL_OTP" ? found.email : found.phoneNumber)
        )
        if (Option.isNone(contact)) {
          return yield* InvalidInput.InvalidInput.onField(
            "type",
            type === "EMAIL_OTP"
              ? "the wallet's customer has no email for an EMAIL_OTP credential"
              : "the wallet's customer has no phoneNumber for an SMS_OTP credential"
          )
        }
        return contact.value
      })

    // Builds the credential the request describes, verifying the token or the registration it carries.
    const build = (
      platform: Platform.Platform,
      account: InternalAccount.InternalAccount,
      request: CreateCredentialRequest
    ) =>
      Effect.gen(function* () {
        const now = yield* DateTime.now
        const id = AuthMethod.AuthMethodId.make(ResourceId.format("AuthMethod", yield* ids.uuid))
        const common = { id, accountId: account.id, type: request.type, createdAt: now, updatedAt: now }
        switch (request.type) {
          case "OAUTH": {
            const claims = yield* oidc.verify({
              token: request.oidcToken,
              issuers: OauthIssuers.of(platform),
              sandbox: platform.environment === "SANDBOX"
            })
            return new AuthMethod.AuthMethod({
              ...common,
              nickname: claims.email ?? claims.identity.subject,
              oauth: claims.identity
            })
          }
          case "PASSKEY": {
            const registered = yield* passkeys.verifyRegistration({
              challenge: request.challenge,
              attestation: request.attestation,
              relyingParty: yield* RelyingParties.of(platform)
            })
            return new AuthMethod.AuthMethod({
              ...common,
              credentialId: registered.credentialId,
              nickname: request.nickname,
              passkey: registered.key
            })
          }
          case "EMAIL_OTP":
          case "SMS_OTP":
            return new AuthMethod.AuthMethod({ ...common, nickname: yield* contactOf(platform, account, request.type) })
        }
      })

    const create = Effect.fn("Credentials.create")(function* (
      platform: Platform.Platform,
      request: CreateCredentialRequest,
      headers: WalletHeaders
    ) {
      const account = yield* WalletAccounts.find(accounts, platform.id, request.accountId, "accountId")
      const existing = yield* methods.listByAccount(platform.id, account.id)
      const action = {
        accountId: account.id,
        operation: "CREATE_CREDENTIAL",
        targetId: account.id,
        body: request
      } as const
      // A retry is authenticated before its content is judged: a changed body is a body mismatch, not a duplicate.
      const authorized =
        existing.length > 0 && isRetry(headers)
          ? Option.some(yield* retry.authorize(platform.id, action, headers))
          : Option.none()
      if (
        (request.type === "EMAIL_OTP" || request.type === "SMS_OTP") &&
        existing.some((m) => m.type === request.type)
      ) {
        return yield* CredentialAlreadyExists.of(request.type)
      }
      if (existing.length > 0 && Option.isNone(authorized)) {
        return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action, { type: request.type }) })
      }
      const method = yield* build(platform, account, request)
      const outcome = yield* unitOfWork.transaction(
        Effect.gen(function* () {
          if (Option.isSome(authorized)) yield* retry.consume(platform.id, authorized.value.request)
          const inserted = yield* methods.insertUnique(platform.id, method)
          if (inserted === "duplicate") return yield* CredentialAlreadyExists.of(request.type)
          return method
        })
      )
      return WalletStep.Done({ value: outcome })
    })

    const revoke = Effect.fn("Credentials.revoke")(function* (
      platform: Platform.Platform,
      id: AuthMethod.AuthMethodId,
      headers: WalletHeaders
    ) {
      const found = yield* methods.findById(platform.id, id)
      if (Option.isNone(found)) return yield* AuthMethodNotFound.of(id)
      const method = found.value
      const siblings = yield* methods.listByAccount(platform.id, method.accountId)
      if (siblings.length <= 1) return yield* LastCredential.of()
      const action = {
        accountId: method.accountId,
        operation: "REVOKE_CREDENTIAL",
        targetId: id,
        body: undefined
      } as const
      if (!isRetry(headers)) {
        return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action, { type: method.type }) })
      }
      // The spec: a credential is revoked by a session of another credential on the same wallet.
      const authorized = yield* retry.authorize(platform.id, action, headers, {
        allowSession: (session) => session.authMethodId !== id
      })
      yield* unitOfWork.transaction(
        Effect.gen(function* () {
          yield* retry.consume(platform.id, authorized.request)
          const deleted = yield* methods.deleteUnlessLast(platform.id, method.accountId, id)
          if (deleted === "last") return yield* LastCredential.of()
          if (deleted === "missing") return yield* AuthMethodNotFound.of(id)
          yield* sessions.revokeIssuedBy(platform.id, id, yield* DateTime.now)
          // A challenge of the deleted credential can never be answered: it goes with the credential.
          yield* otpChallenges.discard(platform.id, id)
        })
      )
      return WalletStep.Done({ value: undefined })
    })

    return Credentials.of({
      list: (platform, accountId) => methods.listByAccount(platform.id, accountId),
      create,
      revoke
    })
  })
)
