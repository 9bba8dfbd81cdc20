import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { OidcTokens } from "@payrail/core"
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT, UnsecuredJWT } from "jose"
import { OidcTokensAdapter, OidcVerifier } from "../src/index.js"

const NOW = 1_760_000_000
const ISSUER = "https://accounts.example.com"
const CLIENT_PUBLIC_KEY = "03bf162576eb8dfecf33d9275d09595284f6c4df0db6156c3c582777886a0ee0ac"
const identity = { issuer: ISSUER, audience: "client-1", subject: "user-1" }

const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true })
const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }
const claims = (overrides: Readonly<Record<string, unknown>> = {}): JWTPayload =>
  ({
    iss: ISSUER,
    aud: "client-1",
    sub: "user-1",
    email: "ada@example.com",
    iat: NOW - 5,
    exp: NOW + 300,
    nonce: OidcVerifier.nonceFor(CLIENT_PUBLIC_KEY),
    ...overrides
  }) as JWTPayload
const signed = (overrides?: Readonly<Record<string, unknown>>) =>
  Effect.promise(() => new SignJWT(claims(overrides)).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(privateKey))

const live = OidcTokensAdapter.layer.pipe(Layer.provide(OidcVerifier.layer()))
const production = { issuers: [{ issuer: ISSUER, jwks: [jwk] }], sandbox: false }
const sandbox = { issuers: [{ issuer: ISSUER }], sandbox: true }

const verify = (check: OidcTokens.OidcCheck) =>
  Effect.zipRight(
    TestClock.setTime(NOW * 1000),
    Effect.flatMap(OidcTokens.OidcTokens, (tokens) => tokens.verify(check))
  )
const failedCheck = (check: OidcTokens.OidcCheck) =>
  Effect.map(Effect.flip(verify(check)), (error) =>
    error._tag === "WalletAuthFailed" ? error.details.check : error._tag
  )

describe("OidcTokensAdapter", () => {
  it.effect("verifies a signed token against the platform's issuer keys and returns its identity and email", () =>
    Effect.gen(function* () {
      const token = yield* signed()
      expect(yield* verify({ token, ...production, clientPublicKey: CLIENT_PUBLIC_KEY, identity })).toEqual({
        identity,
        email: "ada@example.com"
      })
      const withoutEmail = yield* verify({ token: yield* signed({ email: undefined }), ...production })
      expect(withoutEmail).toEqual({ identity })
    }).pipe(Effect.provide(live))
  )

  it.effect("in the sandbox skips the signature but checks every claim", () =>
    Effect.gen(function* () {
      const unsigned = (overrides?: Readonly<Record<string, unknown>>) => new UnsecuredJWT(claims(overrides)).encode()
      expect((yield* verify({ token: unsigned(), ...sandbox, clientPublicKey: CLIENT_PUBLIC_KEY })).identity).toEqual(
        identity
      )
      expect(yield* failedCheck({ token: unsigned(), ...production })).toBe("oidc_token")
      expect(yield* failedCheck({ token: unsigned({ iat: NOW - 70 }), ...sandbox })).toBe("oidc_iat")
    }).pipe(Effect.provide(live))
  )

  it.effect("names each failed check as the AuthCheck core expects, and a non-JWT as INVALID_INPUT", () =>
    Effect.gen(function* () {
      const other = yield* Effect.promise(() => generateKeyPair("ES256"))
      const forged = yield* Effect.promise(() =>
        new SignJWT(claims()).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(other.privateKey)
      )
      const cases: ReadonlyArray<[OidcTokens.OidcCheck, string]> = [
        [{ token: forged, ...production }, "oidc_signature"],
        [{ token: yield* signed(), issuers: [{ issuer: ISSUER }], sandbox: false }, "oidc_signature"],
        [{ token: yield* signed({ iss: "https://other.example.com" }), ...production }, "oidc_issuer"],
        [{ token: yield* signed({ aud: ["a", "b"] }), ...production }, "oidc_audience"],
        [{ token: yield* signed({ sub: undefined }), ...production }, "oidc_subject"],
        [{ token: yield* signed({ iat: NOW - 61 }), ...production }, "oidc_iat"],
        [{ token: yield* signed({ exp: NOW }), ...production }, "oidc_exp"],
        [{ token: yield* signed({ nonce: "x" }), ...production, clientPublicKey: CLIENT_PUBLIC_KEY }, "oidc_nonce"],
        [{ token: yield* signed(), ...production, identity: { ...identity, subject: "user-2" } }, "oidc_subject"],
        [{ token: yield* signed(), ...production, identity: { ...identity, audience: "client-2" } }, "oidc_audience"],
        [{ token: "not-a-jwt", ...production }, "InvalidInput"]
      ]
      for (const [check, expected] of cases) expect(yield* failedCheck(check)).toBe(expected)
      const invalid = yield* Effect.flip(verify({ token: "a.b", ...production }))
      expect(invalid._tag === "InvalidInput" && invalid.details?.errors[0]?.field).toBe("oidcToken")
    }).pipe(Effect.provide(live))
  )
})
