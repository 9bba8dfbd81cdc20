import { Effect, Layer } from "effect"
import { InvalidInput, OidcTokens, WalletErrors } from "@payrail/core"
import type { JSONWebKeySet } from "jose"
import * as OidcVerifier from "./OidcVerifier.js"

const checks: Readonly<Record<Exclude<OidcVerifier.OidcTokenInvalid["check"], "format">, WalletErrors.AuthCheck>> = {
  alg: "oidc_token",
  iss: "oidc_issuer",
  signature: "oidc_signature",
  aud: "oidc_audience",
  sub: "oidc_subject",
  iat: "oidc_iat",
  exp: "oidc_exp",
  nonce: "oidc_nonce"
}

/** Core's issuer configuration in the verifier's terms (core names no audiences: any single audience is accepted). */
export const toIssuer = (issuer: OidcTokens.OidcIssuer): OidcVerifier.Issuer => ({
  issuer: issuer.issuer,
  ...(issuer.jwksUrl === undefined ? {} : { jwksUrl: issuer.jwksUrl }),
  // The keys are checked by jose when the key set is built; a malformed one matches no token.
  ...(issuer.jwks === undefined ? {} : { jwks: { keys: [...issuer.jwks] } as unknown as JSONWebKeySet })
})

/**
 * Core's `OidcTokens` on {@link OidcVerifier}, with the platform's issuers and sandbox flag passed per call. A token
 * that is not a JWT fails with `InvalidInput` on `oidcToken`; every failed check with `WalletAuthFailed` naming it:
 * `oidc_issuer`, `oidc_signature` (also an issuer with no keys outside the sandbox), `oidc_token` (an algorithm not
 * accepted), `oidc_audience`, `oidc_subject`, `oidc_iat`, `oidc_exp`, `oidc_nonce`.
 */
export const layer: Layer.Layer<OidcTokens.OidcTokens, never, OidcVerifier.OidcVerifier> = Layer.effect(
  OidcTokens.OidcTokens,
  Effect.map(OidcVerifier.OidcVerifier, (verifier) => ({
    verify: Effect.fn("OidcTokens.verify")((check: OidcTokens.OidcCheck) =>
      verifier
        .verify({
          token: check.token,
          issuers: check.issuers.map(toIssuer),
          mode: check.sandbox ? "sandbox" : "verify",
          ...(check.clientPublicKey === undefined ? {} : { clientPublicKey: check.clientPublicKey }),
          ...(check.identity === undefined ? {} : { credential: check.identity })
        })
        .pipe(
          Effect.map((verified): OidcTokens.OidcClaims => ({
            identity: { issuer: verified.issuer, audience: verified.audience, subject: verified.subject },
            ...(verified.email === undefined ? {} : { email: verified.email })
          })),
          Effect.mapError((error) =>
            error.check === "format"
              ? InvalidInput.InvalidInput.onField("oidcToken", "must be an OIDC ID token (a JWT)")
              : WalletErrors.WalletAuthFailed.of(checks[error.check], `The OIDC token was refused: ${error.reason}`)
          )
        )
    )
  }))
)
