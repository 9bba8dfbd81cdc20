import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, type Layer } from "effect"
import { Caller, Credentials, Logins, WalletExports, WalletPrivacy, WalletSessions, WalletStep } from "@payrail/core"
import { type Authentication, PayrailApi, SignedRetryContract, WalletShapes } from "@payrail/api"

const { toWalletHeaders, typedChallenge, untypedChallenge } = SignedRetryContract

// A revocation's answer: the challenge (202), or 204 once done (the contract declares both).
const revoked = (
  step: WalletStep.WalletStep<void>
): SignedRetryContract.AuthSignedRequestChallenge | HttpServerResponse.HttpServerResponse =>
  step._tag === "Challenge" ? typedChallenge(step.request) : HttpServerResponse.empty({ status: 204 })

/** The wallet services the handlers call. */
export type Services =
  | Credentials.Credentials
  | Logins.Logins
  | WalletSessions.WalletSessions
  | WalletExports.WalletExports
  | WalletPrivacy.WalletPrivacy
  | Authentication.Authentication

/**
 * Handlers of the embedded wallet endpoints: check the permission (reads VIEW, writes MANAGE), pass the wallet
 * headers (`Grid-Wallet-Signature` read as `Service-Wallet-Signature`) to the use case, and answer its step: a
 * challenge (202) or the result in its wire shape.
 */
export const layer: Layer.Layer<HttpApiGroup.ApiGroup<"payrail", "walletAuth">, never, Services> = HttpApiBuilder.group(
  PayrailApi.PayrailApi,
  "walletAuth",
  (handlers) =>
    Effect.gen(function* () {
      const credentials = yield* Credentials.Credentials
      const logins = yield* Logins.Logins
      const sessions = yield* WalletSessions.WalletSessions
      const exports = yield* WalletExports.WalletExports
      const privacy = yield* WalletPrivacy.WalletPrivacy
      return handlers
        .handle("createCredential", ({ headers, payload, request }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            credentials.create(caller.platform, payload, toWalletHeaders(headers, request.headers))
          ).pipe(
            Effect.map(
              WalletStep.match({
                Challenge: ({ request }) => typedChallenge(request),
                Done: ({ value }) => WalletShapes.authMethodView(value)
              })
            )
          )
        )
        .handle("listCredentials", ({ urlParams }) =>
          Effect.flatMap(Caller.require("VIEW"), (caller) =>
            credentials.list(caller.platform, urlParams.accountId)
          ).pipe(Effect.map((methods) => ({ data: methods.map((method) => WalletShapes.authMethodView(method)) })))
        )
        .handle("challengeCredential", ({ path, payload }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            logins.challenge(caller.platform, path.credentialId, payload)
          ).pipe(Effect.map(WalletShapes.loginChallengeView))
        )
        .handle("verifyCredential", ({ headers, path, payload, request }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            logins.verify(caller.platform, path.credentialId, payload, toWalletHeaders(headers, request.headers))
          ).pipe(
            Effect.map(
              WalletStep.match({
                Challenge: ({ request }) => typedChallenge(request),
                Done: ({ value }) => WalletShapes.grantView(value)
              })
            )
          )
        )
        .handle("revokeCredential", ({ headers, path, request }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            credentials.revoke(caller.platform, path.credentialId, toWalletHeaders(headers, request.headers))
          ).pipe(
            Effect.map(revoked),
            // The shared failure type of Credentials names it; a revocation never adds a credential.
            Effect.catchTag("CredentialAlreadyExists", (error) => Effect.die(error))
          )
        )
        .handle("listSessions", ({ urlParams }) =>
          Effect.flatMap(Caller.require("VIEW"), (caller) => sessions.list(caller.platform, urlParams.accountId)).pipe(
            Effect.map((active) => ({ data: active.map((session) => WalletShapes.authSessionView(session)) }))
          )
        )
        .handle("refreshSession", ({ headers, path, payload, request }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            sessions.refresh(caller.platform, path.sessionId, payload, toWalletHeaders(headers, request.headers))
          ).pipe(
            Effect.map(
              WalletStep.match({
                Challenge: ({ request }) => untypedChallenge(request),
                Done: ({ value }) => WalletShapes.grantView(value)
              })
            )
          )
        )
        .handle("revokeSession", ({ headers, path, request }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            sessions.revoke(caller.platform, path.sessionId, toWalletHeaders(headers, request.headers))
          ).pipe(Effect.map(revoked))
        )
        .handle("exportWallet", ({ headers, path, payload, request }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            exports.export(caller.platform, path.accountId, payload, toWalletHeaders(headers, request.headers))
          ).pipe(
            Effect.map(
              WalletStep.match({
                Challenge: ({ request }) => untypedChallenge(request),
                Done: ({ value }) => WalletShapes.exportedWalletView(value)
              })
            )
          )
        )
        .handle("updateWallet", ({ headers, path, payload, request }) =>
          Effect.flatMap(Caller.require("MANAGE"), (caller) =>
            privacy.update(caller.platform, path.accountId, payload, toWalletHeaders(headers, request.headers))
          ).pipe(
            Effect.map(
              WalletStep.match({
                Challenge: ({ request }) => untypedChallenge(request),
                Done: ({ value }) => value
              })
            )
          )
        )
    })
)
