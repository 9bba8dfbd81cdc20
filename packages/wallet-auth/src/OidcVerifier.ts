import { createHash } from "node:crypto"
import { Clock, Context, Effect, Layer, Schema } from "effect"
import {
  compactVerify,
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JSONWebKeySet,
  type JWTPayload
} from "jose"
import { makeBoundedCache } from "./internal/boundedCache.js"

/**
 * An OIDC token was refused; `check` names the rule that failed: `format` (not a JWT; maps to 400 `INVALID_INPUT`),
 * `alg` (algorithm not accepted), `iss` (unsupported issuer, or not the credential's), `signature`, `aud`, `sub`,
 * `iat` (older than the allowed age or in the future), `exp` (expired or missing), `nonce` (not the SHA-256 hex of
 * the exact `clientPublicKey`). Every other `check` maps to 401 `UNAUTHORIZED`.
 */
export class OidcTokenInvalid extends Schema.TaggedError<OidcTokenInvalid>()("OidcTokenInvalid", {
  check: Schema.Literal("format", "alg", "iss", "signature", "aud", "sub", "iat", "exp", "nonce"),
  reason: Schema.String
}) {}

/** An issuer a platform accepts tokens from, as configured per platform and passed with each token. */
export interface Issuer {
  /** The exact `iss` value. */
  readonly issuer: string
  /** Accepted `aud` values (your OAuth client ids); absent or empty accepts any single non-empty audience. */
  readonly audiences?: ReadonlyArray<string>
  /** The issuer's signing keys. Outside sandbox mode one of `jwks` and `jwksUrl` is needed to accept its tokens. */
  readonly jwks?: JSONWebKeySet
  /** Where to fetch the signing keys; `jose` caches them and refetches on an unknown `kid`. */
  readonly jwksUrl?: string
}

/** Options of {@link layer}: how strict the checks are, the same for every platform. */
export interface Options {
  /** How old `iat` may be; default 60 seconds. */
  readonly maxTokenAgeSeconds?: number
  /** Tolerance for clock differences on `iat`; default 0, or 5 seconds in sandbox mode. */
  readonly clockSkewSeconds?: number
  /** Accepted signature algorithms; default `RS256` and `ES256`. `none` is never accepted. */
  readonly algorithms?: ReadonlyArray<string>
  /** How many issuer key sets (remote by URL, local by content) stay cached; default 256. */
  readonly keySetCacheCapacity?: number
}

/** The identity a verified token asserts; `iss`+`aud`+`sub` is the stored identity of an `OAUTH` credential. */
export interface OidcIdentity {
  readonly issuer: string
  readonly audience: string
  readonly subject: string
  /** The `email` claim when present: the nickname of an `OAUTH` credential. */
  readonly email?: string
  readonly issuedAtSeconds: number
  readonly expiresAtSeconds: number
}

/** What to verify a token against. */
export interface VerifyOidcInput {
  readonly token: string
  /** The issuers the platform accepts. */
  readonly issuers: ReadonlyArray<Issuer>
  /** `sandbox` skips only the signature check (sandbox tokens are JWT-shaped but unsigned); every claim is checked. */
  readonly mode: "verify" | "sandbox"
  /** On credential verify: the exact `clientPublicKey` string whose SHA-256 hex must be the token's `nonce`. */
  readonly clientPublicKey?: string
  /** The credential being verified: `iss`, `aud` and `sub` must equal its stored identity. */
  readonly credential?: { readonly issuer: string; readonly audience: string; readonly subject: string }
}

/**
 * Verifies OIDC ID tokens for `OAUTH` credentials against the issuers passed with each call: the signature against
 * the issuer's keys on every call (except in sandbox mode; an issuer without keys fails `signature`), then the claim
 * rules of the spec, with time from Effect's `Clock`. Key sets are cached per URL (remote) and per content (local),
 * bounded. Safe to call concurrently. A failure to fetch an issuer's keys is a defect, not a client error.
 */
export interface OidcVerifierService {
  readonly verify: (input: VerifyOidcInput) => Effect.Effect<OidcIdentity, OidcTokenInvalid>
}

/** Tag of the {@link OidcVerifierService}. */
export class OidcVerifier extends Context.Tag("@payrail/wallet-auth/OidcVerifier")<
  OidcVerifier,
  OidcVerifierService
>() {}

/** `nonce` of a token bound to a client key: lowercase hex SHA-256 of the exact `clientPublicKey` string. */
export const nonceFor = (clientPublicKey: string): string =>
  createHash("sha256").update(clientPublicKey, "utf8").digest("hex")

const fail = (check: OidcTokenInvalid["check"], reason: string) => Effect.fail(new OidcTokenInvalid({ check, reason }))

const SIGNATURE_FAILURES: ReadonlySet<string> = new Set([
  errors.JWSSignatureVerificationFailed.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
  errors.JWSInvalid.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
  errors.JWKInvalid.code
])

type KeySet = ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>

const decode = (token: string): { readonly alg: unknown; readonly claims: JWTPayload } | undefined => {
  try {
    return { alg: decodeProtectedHeader(token).alg, claims: decodeJwt(token) }
  } catch {
    return undefined
  }
}

const singleAudience = (aud: unknown): string | undefined => {
  const value = Array.isArray(aud) && aud.length === 1 ? (aud[0] as unknown) : aud
  return typeof value === "string" && value.length > 0 ? value : undefined
}

const make = (options: Options): OidcVerifierService => {
  const maxAge = options.maxTokenAgeSeconds ?? 60
  const algorithms = options.algorithms ?? ["RS256", "ES256"]
  // Keyed `url:<jwksUrl>` or `jwks:<JSON of the keys>`, so one platform's change of keys is a new entry.
  const keySetFor = makeBoundedCache(options.keySetCacheCapacity ?? 256, (key: string): KeySet =>
    key.startsWith("url:")
      ? createRemoteJWKSet(new URL(key.slice("url:".length)))
      : createLocalJWKSet(JSON.parse(key.slice("jwks:".length)) as JSONWebKeySet)
  )
  const keysOf = (issuer: Issuer): KeySet | undefined =>
    issuer.jwks !== undefined
      ? keySetFor(`jwks:${JSON.stringify(issuer.jwks)}`)
      : issuer.jwksUrl !== undefined
        ? keySetFor(`url:${issuer.jwksUrl}`)
        : undefined

  const verifySignature = (token: string, keys: KeySet) =>
    Effect.tryPromise({
      try: () => compactVerify(token, keys, { algorithms: [...algorithms] }),
      catch: (error) => error
    }).pipe(
      Effect.asVoid,
      Effect.catchAll((error) =>
        error instanceof errors.JOSEError && SIGNATURE_FAILURES.has(error.code)
          ? fail("signature", error.message)
          : Effect.die(error)
      )
    )

  const verify: OidcVerifierService["verify"] = (input) =>
    Effect.gen(function* () {
      const sandbox = input.mode === "sandbox"
      const skew = options.clockSkewSeconds ?? (sandbox ? 5 : 0)
      const decoded = decode(input.token)
      if (decoded === undefined) return yield* fail("format", "not a compact JWT with a JSON claims set")
      const { claims } = decoded
      if (!sandbox && (typeof decoded.alg !== "string" || !algorithms.includes(decoded.alg))) {
        return yield* fail("alg", `algorithm ${String(decoded.alg)} is not accepted`)
      }
      const issuer = input.issuers.find((candidate) => candidate.issuer === claims.iss)
      if (issuer === undefined) return yield* fail("iss", "the issuer is not supported")
      if (!sandbox) {
        const keys = keysOf(issuer)
        if (keys === undefined) return yield* fail("signature", "no signing keys are configured for the issuer")
        yield* verifySignature(input.token, keys)
      }
      const audience = singleAudience(claims.aud)
      if (audience === undefined) return yield* fail("aud", "aud must be one non-empty string")
      const allowed = issuer.audiences ?? []
      if (allowed.length > 0 && !allowed.includes(audience)) return yield* fail("aud", "the audience is not accepted")
      if (typeof claims.sub !== "string" || claims.sub.length === 0) return yield* fail("sub", "sub is missing")
      const now = (yield* Clock.currentTimeMillis) / 1000
      if (typeof claims.iat !== "number") return yield* fail("iat", "iat is missing")
      if (claims.iat < now - maxAge - skew) return yield* fail("iat", `the token was issued more than ${maxAge} s ago`)
      if (claims.iat > now + skew) return yield* fail("iat", "the token is issued in the future")
      if (typeof claims.exp !== "number" || claims.exp <= now) return yield* fail("exp", "the token has expired")
      if (input.clientPublicKey !== undefined && claims.nonce !== nonceFor(input.clientPublicKey)) {
        return yield* fail("nonce", "nonce is not the SHA-256 hex of clientPublicKey")
      }
      const expected = input.credential
      if (expected !== undefined) {
        if (claims.iss !== expected.issuer) return yield* fail("iss", "the token is for another credential")
        if (audience !== expected.audience) return yield* fail("aud", "the token is for another credential")
        if (claims.sub !== expected.subject) return yield* fail("sub", "the token is for another credential")
      }
      return {
        issuer: issuer.issuer,
        audience,
        subject: claims.sub,
        ...(typeof claims["email"] === "string" ? { email: claims["email"] } : {}),
        issuedAtSeconds: claims.iat,
        expiresAtSeconds: claims.exp
      }
    })

  return { verify }
}

/** The verifier, with the default checks unless `options` say otherwise. */
export const layer = (options: Options = {}): Layer.Layer<OidcVerifier> => Layer.sync(OidcVerifier, () => make(options))
