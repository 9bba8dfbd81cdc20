import { Context, type Effect } from "effect"
import type { AuthMethod } from "../accounts/index.js"
import type { InvalidInput } from "../kernel/index.js"
import type { WalletAuthFailed } from "./WalletErrors.js"

/** An issuer a platform accepts OIDC tokens from, with where its signing keys are. */
export interface OidcIssuer {
  readonly issuer: string
  /** The JWKS document URL, or the keys themselves (a JWKS `keys` array). */
  readonly jwksUrl?: string
  readonly jwks?: ReadonlyArray<Record<string, unknown>>
}

/** What to check a token against. */
export interface OidcCheck {
  readonly token: string
  readonly issuers: ReadonlyArray<OidcIssuer>
  /** The sandbox checks every claim but not the signature (the spec's relaxed sandbox checks). */
  readonly sandbox: boolean
  /** On verify: the identity the credential stands for; `iss`, `aud` and `sub` must match it. */
  readonly identity?: AuthMethod.OauthIdentity
  /** On verify: `nonce` must be the SHA-256 hex of exactly this `clientPublicKey` string. */
  readonly clientPublicKey?: string
}

/** The identity a token proved, and its `email` claim when present. */
export interface OidcClaims {
  readonly identity: AuthMethod.OauthIdentity
  readonly email?: string
}

/**
 * Verifies OIDC ID tokens for `OAUTH` credentials: signature against the issuer's keys (outside the sandbox), `iat`
 * at most 60 seconds old (5 seconds of skew in the sandbox), `exp` in the future, `iss` among the platform's
 * issuers, `aud` one string, and on verify the identity and the `nonce`. A token that is not a JWT at all fails
 * with `InvalidInput` (400); every failed check is `WalletAuthFailed` naming it. Implemented by `@payrail/wallet-auth`.
 */
export class OidcTokens extends Context.Tag("@payrail/core/OidcTokens")<
  OidcTokens,
  {
    readonly verify: (check: OidcCheck) => Effect.Effect<OidcClaims, WalletAuthFailed | InvalidInput.InvalidInput>
  }
>() {}
