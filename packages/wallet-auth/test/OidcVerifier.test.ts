import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT, UnsecuredJWT } from "jose"
import { OidcVerifier } from "../src/index.js"

const NOW = 1_760_000_000
const ISSUER = "https://accounts.example.com"
const CLIENT_ID = "payrail-test-client"
const CLIENT_PUBLIC_KEY = "03bf162576eb8dfecf33d9275d09595284f6c4df0db6156c3c582777886a0ee0ac"

const makeSigner = async (alg: "ES256" | "RS256", kid: string) => {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" }
  const sign = (claims: JWTPayload, header: { alg?: string; kid?: string } = {}) =>
    new SignJWT(claims).setProtectedHeader({ alg, kid, ...header }).sign(privateKey)
  return { jwk, sign }
}

const es256 = await makeSigner("ES256", "es-1")
const rs256 = await makeSigner("RS256", "rs-1")
const impostor = await makeSigner("ES256", "es-1")

/** Claims of a valid token; an override of `undefined` removes the claim (JSON drops it). */
const claims = (overrides: Readonly<Record<string, unknown>> = {}): JWTPayload =>
  ({
    iss: ISSUER,
    aud: CLIENT_ID,
    sub: "user-123",
    email: "ada@example.com",
    iat: NOW - 10,
    exp: NOW + 300,
    nonce: OidcVerifier.nonceFor(CLIENT_PUBLIC_KEY),
    ...overrides
  }) as JWTPayload

type Input = Omit<OidcVerifier.VerifyOidcInput, "issuers" | "mode">
type Platform = Pick<OidcVerifier.VerifyOidcInput, "issuers" | "mode">

/** A production platform accepting ISSUER with local keys, and a sandbox platform naming ISSUER without keys. */
const production: Platform = {
  mode: "verify",
  issuers: [{ issuer: ISSUER, audiences: [CLIENT_ID], jwks: { keys: [es256.jwk, rs256.jwk] } }]
}
const sandbox: Platform = { mode: "sandbox", issuers: [{ issuer: ISSUER }] }
const verifierLayer = OidcVerifier.layer()

const atNow = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.zipRight(TestClock.setTime(NOW * 1000), effect)

const checkOf = (input: Input, platform: Platform = production) =>
  Effect.flatMap(OidcVerifier.OidcVerifier, (v) =>
    Effect.map(Effect.flip(v.verify({ ...input, ...platform })), (error) => error.check)
  )

const identityOf = (input: Input, platform: Platform = production) =>
  Effect.flatMap(OidcVerifier.OidcVerifier, (v) => v.verify({ ...input, ...platform }))

describe("OidcVerifier (verify mode)", () => {
  it.effect("accepts ES256 and RS256 tokens from a configured issuer and returns the stored identity", () =>
    atNow(
      Effect.gen(function* () {
        for (const signer of [es256, rs256]) {
          const token = yield* Effect.promise(() => signer.sign(claims()))
          const identity = yield* identityOf({ token, clientPublicKey: CLIENT_PUBLIC_KEY })
          expect(identity).toEqual({
            issuer: ISSUER,
            audience: CLIENT_ID,
            subject: "user-123",
            email: "ada@example.com",
            issuedAtSeconds: NOW - 10,
            expiresAtSeconds: NOW + 300
          })
        }
      })
    ).pipe(Effect.provide(verifierLayer))
  )

  const refused: ReadonlyArray<[string, () => Promise<string>, OidcVerifier.OidcTokenInvalid["check"]]> = [
    ["a token signed by another key under the same kid", () => impostor.sign(claims()), "signature"],
    ["a token whose kid is unknown", () => es256.sign(claims(), { kid: "unknown" }), "signature"],
    ["an unsecured token", async () => new UnsecuredJWT(claims()).encode(), "alg"],
    ["an unsupported issuer", () => es256.sign(claims({ iss: "https://evil.example.com" })), "iss"],
    ["two audiences", () => es256.sign(claims({ aud: [CLIENT_ID, "other"] })), "aud"],
    ["an audience that is not ours", () => es256.sign(claims({ aud: "someone-else" })), "aud"],
    ["no subject", () => es256.sign(claims({ sub: undefined })), "sub"],
    ["iat 61 seconds ago", () => es256.sign(claims({ iat: NOW - 61 })), "iat"],
    ["iat in the future", () => es256.sign(claims({ iat: NOW + 1 })), "iat"],
    ["no iat", () => es256.sign(claims({ iat: undefined })), "iat"],
    ["exp now", () => es256.sign(claims({ exp: NOW })), "exp"],
    ["no exp", () => es256.sign(claims({ exp: undefined })), "exp"],
    [
      "a nonce of the uncompressed form of the key",
      () => es256.sign(claims({ nonce: OidcVerifier.nonceFor(`04${"ab".repeat(64)}`) })),
      "nonce"
    ],
    ["no nonce", () => es256.sign(claims({ nonce: undefined })), "nonce"],
    ["not a JWT", async () => "not-a-jwt", "format"]
  ]
  for (const [what, makeToken, check] of refused) {
    it.effect(`refuses ${what} with check ${check}`, () =>
      atNow(
        Effect.gen(function* () {
          const token = yield* Effect.promise(makeToken)
          expect(yield* checkOf({ token, clientPublicKey: CLIENT_PUBLIC_KEY })).toBe(check)
        })
      ).pipe(Effect.provide(verifierLayer))
    )
  }

  it.effect("accepts iat exactly 60 seconds old and a one-element aud array; skips nonce without clientPublicKey", () =>
    atNow(
      Effect.gen(function* () {
        const token = yield* Effect.promise(() =>
          es256.sign(claims({ iat: NOW - 60, aud: [CLIENT_ID], nonce: undefined }))
        )
        expect((yield* identityOf({ token })).audience).toBe(CLIENT_ID)
      })
    ).pipe(Effect.provide(verifierLayer))
  )

  it.effect("reads time from the Clock: the same token fails once the clock moves past 60 seconds", () =>
    Effect.gen(function* () {
      const token = yield* Effect.promise(() => es256.sign(claims({ iat: NOW })))
      yield* TestClock.setTime(NOW * 1000 + 60_000)
      expect((yield* identityOf({ token })).subject).toBe("user-123")
      yield* TestClock.adjust("1 second")
      expect(yield* checkOf({ token })).toBe("iat")
    }).pipe(Effect.provide(verifierLayer))
  )

  it.effect("requires iss, aud and sub to be the credential's", () =>
    atNow(
      Effect.gen(function* () {
        const token = yield* Effect.promise(() => es256.sign(claims()))
        const credential = { issuer: ISSUER, audience: CLIENT_ID, subject: "user-123" }
        expect((yield* identityOf({ token, credential })).subject).toBe("user-123")
        expect(yield* checkOf({ token, credential: { ...credential, subject: "user-456" } })).toBe("sub")
        expect(yield* checkOf({ token, credential: { ...credential, audience: "other" } })).toBe("aud")
        expect(yield* checkOf({ token, credential: { ...credential, issuer: "https://other.example.com" } })).toBe(
          "iss"
        )
      })
    ).pipe(Effect.provide(verifierLayer))
  )

  it.effect("fetches the issuer keys from jwksUrl", () =>
    Effect.gen(function* () {
      let fetches = 0
      const server = createServer((_, response) => {
        fetches += 1
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify({ keys: [es256.jwk] }))
      })
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () => Effect.sync(() => server.close())
      )
      const port = (server.address() as AddressInfo).port
      const remote: Platform = {
        mode: "verify",
        issuers: [{ issuer: ISSUER, jwksUrl: `http://127.0.0.1:${port}/jwks.json` }]
      }
      const token = yield* Effect.promise(() => es256.sign(claims()))
      yield* TestClock.setTime(NOW * 1000)
      expect((yield* identityOf({ token }, remote)).subject).toBe("user-123")
      const forged = yield* Effect.promise(() => impostor.sign(claims()))
      expect(yield* checkOf({ token: forged }, remote)).toBe("signature")
      expect(fetches).toBe(1)
    }).pipe(Effect.scoped, Effect.provide(verifierLayer))
  )

  it.effect("takes the issuers with each token: one verifier serves platforms with different issuers and keys", () =>
    atNow(
      Effect.gen(function* () {
        const token = yield* Effect.promise(() => es256.sign(claims()))
        const otherKeys: Platform = { mode: "verify", issuers: [{ issuer: ISSUER, jwks: { keys: [rs256.jwk] } }] }
        const otherIssuer: Platform = { mode: "verify", issuers: [{ issuer: "https://other.example.com" }] }
        expect((yield* identityOf({ token })).subject).toBe("user-123")
        expect(yield* checkOf({ token }, otherKeys)).toBe("signature")
        expect(yield* checkOf({ token }, otherIssuer)).toBe("iss")
        expect((yield* identityOf({ token })).subject).toBe("user-123")
      })
    ).pipe(Effect.provide(verifierLayer))
  )

  it.effect("refuses the tokens of an issuer that has no key source outside the sandbox", () =>
    atNow(
      Effect.gen(function* () {
        const token = yield* Effect.promise(() => es256.sign(claims()))
        expect(yield* checkOf({ token }, { mode: "verify", issuers: [{ issuer: ISSUER }] })).toBe("signature")
      })
    ).pipe(Effect.provide(verifierLayer))
  )
})

describe("OidcVerifier (sandbox mode)", () => {
  it.effect("skips only the signature: unsigned and wrongly signed tokens pass the claim rules", () =>
    atNow(
      Effect.gen(function* () {
        for (const token of [
          new UnsecuredJWT(claims()).encode(),
          yield* Effect.promise(() => impostor.sign(claims()))
        ]) {
          expect((yield* identityOf({ token, clientPublicKey: CLIENT_PUBLIC_KEY }, sandbox)).subject).toBe("user-123")
        }
      })
    ).pipe(Effect.provide(verifierLayer))
  )

  it.effect("allows 5 seconds of skew on iat and still checks every claim", () =>
    atNow(
      Effect.gen(function* () {
        const unsigned = (overrides: Readonly<Record<string, unknown>>) => new UnsecuredJWT(claims(overrides)).encode()
        expect((yield* identityOf({ token: unsigned({ iat: NOW - 65 }) }, sandbox)).subject).toBe("user-123")
        expect((yield* identityOf({ token: unsigned({ iat: NOW + 5 }) }, sandbox)).subject).toBe("user-123")
        expect(yield* checkOf({ token: unsigned({ iat: NOW - 66 }) }, sandbox)).toBe("iat")
        expect(yield* checkOf({ token: unsigned({ iat: NOW + 6 }) }, sandbox)).toBe("iat")
        expect(yield* checkOf({ token: unsigned({ exp: NOW - 1 }) }, sandbox)).toBe("exp")
        expect(yield* checkOf({ token: unsigned({ iss: "https://evil.example.com" }) }, sandbox)).toBe("iss")
        expect(yield* checkOf({ token: unsigned({ aud: "" }) }, sandbox)).toBe("aud")
        expect(yield* checkOf({ token: unsigned({ nonce: "00" }), clientPublicKey: CLIENT_PUBLIC_KEY }, sandbox)).toBe(
          "nonce"
        )
      })
    ).pipe(Effect.provide(verifierLayer))
  )
})
