import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { AuthMethod, AuthSession, CredentialRequest, InternalAccount, WalletPrivacy } from "@payrail/core"
import { InternalAccountsApi } from "../accounts/index.js"
import { FieldErrorReport, SignedRetryContract } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import * as Bodies from "./WalletErrorBodies.js"
import * as Shapes from "./WalletShapes.js"

const { reportFieldErrors } = FieldErrorReport

const CredentialPath = reportFieldErrors(Schema.Struct({ credentialId: AuthMethod.AuthMethodId }))
const SessionPath = reportFieldErrors(Schema.Struct({ sessionId: AuthSession.AuthSessionId }))
const AccountPath = reportFieldErrors(Schema.Struct({ accountId: InternalAccount.InternalAccountId }))
const AccountQuery = reportFieldErrors(Schema.Struct({ accountId: InternalAccount.InternalAccountId }))

const Processing = SignedRetryContract.WalletOperationProcessing
const signedRetry =
  "A signed retry: the first request (without wallet headers) answers 202 with a challenge; stamp its " +
  "`payloadToSign` with an active session's key and re-send the same request with `Service-Wallet-Signature` and " +
  "`Request-Id`. 200 `PROCESSING` is declared for compatibility; Payrail never returns it yet."

/**
 * Embedded wallet authentication: credentials (add, list, OTP or passkey challenge, verify, revoke), sessions
 * (list, refresh, revoke), the wallet export and its privacy setting. Writes that act on a wallet with a credential go through the
 * signed retry (202 challenge, then the retry stamped by a session key); their 401s each have their own code.
 */
export class WalletAuthApi extends HttpApiGroup.make("walletAuth")
  .add(
    HttpApiEndpoint.post("createCredential", "/auth/credentials")
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .setPayload(reportFieldErrors(CredentialRequest.CreateCredentialRequest))
      .addSuccess(Shapes.AuthMethodView, { status: 201 })
      .addSuccess(SignedRetryContract.AuthSignedRequestChallenge, { status: 202 })
      .addSuccess(Processing)
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(Bodies.CredentialAlreadyExistsBody)
      .addError(InternalAccountsApi.InternalAccountNotFoundBody)
      .annotate(OpenApi.Summary, "Add a credential to an embedded wallet")
      .annotate(
        OpenApi.Description,
        `The wallet's first credential is added at once (201). Adding to a wallet that has one is a signed retry. ${signedRetry}`
      )
  )
  .add(
    HttpApiEndpoint.get("listCredentials", "/auth/credentials")
      .setUrlParams(AccountQuery)
      .addSuccess(Shapes.AuthMethodList)
      .annotate(OpenApi.Summary, "List a wallet's credentials (not paginated; empty for an unknown account)")
  )
  .add(
    HttpApiEndpoint.post("challengeCredential", "/auth/credentials/:credentialId/challenge")
      .setPath(CredentialPath)
      .setPayload(reportFieldErrors(CredentialRequest.CredentialChallengeRequest))
      .addSuccess(Schema.Union(Shapes.AuthMethodView, Shapes.PasskeyAuthChallenge, Processing))
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(Bodies.AuthMethodNotFoundBody)
      .addError(Bodies.OtpDeliveryFailedBody)
      .annotate(OpenApi.Summary, "Issue a one-time code (OTP credentials) or a WebAuthn challenge (passkeys)")
      .annotate(
        OpenApi.Description,
        "OTP credentials: no body; sends a fresh code and answers the credential with `otpEncryptionTargetBundle`. " +
          "Re-issues are rate-limited per credential (429 with `Retry-After`). Passkeys: `{clientPublicKey}`; " +
          "answers a single-use challenge whose `requestId` the verify sends as `Request-Id`."
      )
  )
  .add(
    HttpApiEndpoint.post("verifyCredential", "/auth/credentials/:credentialId/verify")
      .setPath(CredentialPath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .setPayload(reportFieldErrors(CredentialRequest.VerifyCredentialRequest))
      .addSuccess(Schema.Union(Shapes.AuthSessionView, Processing))
      .addSuccess(SignedRetryContract.AuthSignedRequestChallenge, { status: 202 })
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(Bodies.AuthMethodNotFoundBody)
      .annotate(OpenApi.Summary, "Verify a credential and open a session")
      .annotate(
        OpenApi.Description,
        "OTP: `{type, encryptedOtpBundle}` answers 202; its retry, stamped by the TEK sealed in the bundle, opens the " +
          "session. OAuth: `{type, oidcToken, clientPublicKey}`. Passkey: `{type, assertion}` with the challenge's " +
          "`Request-Id`. A wrong code or a failed check is 401 `UNAUTHORIZED` naming the check."
      )
  )
  .add(
    HttpApiEndpoint.del("revokeCredential", "/auth/credentials/:credentialId")
      .setPath(CredentialPath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .addSuccess(SignedRetryContract.AuthSignedRequestChallenge, { status: 202 })
      .addSuccess(Schema.Void, { status: 204 })
      .addSuccess(Processing)
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(Bodies.AuthMethodNotFoundBody)
      .addError(Bodies.LastCredentialBody)
      .annotate(OpenApi.Summary, "Revoke a credential and the sessions it issued")
      .annotate(
        OpenApi.Description,
        `The retry must be signed by a session of another credential of the wallet; the last credential stays (400). ${signedRetry}`
      )
  )
  .add(
    HttpApiEndpoint.get("listSessions", "/auth/sessions")
      .setUrlParams(AccountQuery)
      .addSuccess(Shapes.AuthSessionList)
      .annotate(OpenApi.Summary, "List a wallet's active sessions (not paginated; empty for an unknown account)")
  )
  .add(
    HttpApiEndpoint.post("refreshSession", "/auth/sessions/:sessionId/refresh")
      .setPath(SessionPath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .setPayload(reportFieldErrors(CredentialRequest.ClientKeyRequest))
      .addSuccess(Shapes.AuthSessionView, { status: 201 })
      .addSuccess(SignedRetryContract.SignedRequestChallenge, { status: 202 })
      .addSuccess(Processing)
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(Bodies.AuthSessionNotFoundBody)
      .annotate(OpenApi.Summary, "Replace a session by a new one of the same credential")
      .annotate(
        OpenApi.Description,
        `\`{clientPublicKey}\` on both legs; the retry is signed by the session being refreshed. ${signedRetry}`
      )
  )
  .add(
    HttpApiEndpoint.del("revokeSession", "/auth/sessions/:sessionId")
      .setPath(SessionPath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .addSuccess(SignedRetryContract.AuthSignedRequestChallenge, { status: 202 })
      .addSuccess(Schema.Void, { status: 204 })
      .addSuccess(Processing)
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(Bodies.AuthSessionNotFoundBody)
      .annotate(OpenApi.Summary, "Revoke a session (signed by any active session of the wallet, itself included)")
      .annotate(OpenApi.Description, signedRetry)
  )
  .add(
    HttpApiEndpoint.post("exportWallet", "/internal-accounts/:accountId/export")
      .setPath(AccountPath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .setPayload(reportFieldErrors(CredentialRequest.ClientKeyRequest))
      .addSuccess(Schema.Union(Shapes.ExportedWalletView, Processing))
      .addSuccess(SignedRetryContract.SignedRequestChallenge, { status: 202 })
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(InternalAccountsApi.InternalAccountNotFoundBody)
      .annotate(OpenApi.Summary, "Export an embedded wallet's secret, sealed to the device's key")
      .annotate(
        OpenApi.Description,
        `\`{clientPublicKey}\` (uncompressed, fresh each time) on both legs; the retry's answer is the only copy. ${signedRetry}`
      )
  )
  .add(
    HttpApiEndpoint.patch("updateWallet", "/internal-accounts/:accountId")
      .setPath(AccountPath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .setPayload(reportFieldErrors(WalletPrivacy.UpdateWalletRequest))
      .addSuccess(InternalAccount.InternalAccountView)
      .addSuccess(SignedRetryContract.SignedRequestChallenge, { status: 202 })
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(InternalAccountsApi.InternalAccountNotFoundBody)
      .annotate(OpenApi.Summary, "Change an embedded wallet's privacy (`privateEnabled`)")
      .annotate(
        OpenApi.Description,
        `\`{privateEnabled}\` on both legs (the retry's body must match); the retry answers the account as \`GET /internal-accounts/{id}\` shows it. Another account type is refused with 400. ${signedRetry}`
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Embedded wallet authentication")
  .annotate(
    OpenApi.Description,
    "Credentials and sessions of embedded wallets, and the wallet export, with the signed retry."
  ) {}
