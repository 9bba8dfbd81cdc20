import { createHash } from "node:crypto"
import { Encoding } from "@payrail/wallet-protocol"
import {
  decodeAttestationObject,
  parseAuthenticatorData,
  type ParsedAuthenticatorData
} from "@simplewebauthn/server/helpers"
import { Effect } from "effect"

/** The checks a passkey ceremony can fail, in the order they are made. */
export const PASSKEY_CHECKS = [
  "format",
  "credentialId",
  "type",
  "challenge",
  "origin",
  "rpId",
  "userPresence",
  "userVerification",
  "counter",
  "signature",
  "attestation"
] as const

export type PasskeyCheckName = (typeof PASSKEY_CHECKS)[number]

/** A failed pre-check; PasskeyVerifier turns it into its tagged error. */
export interface CheckFailure {
  readonly check: PasskeyCheckName
  readonly reason: string
}

const failure = (check: PasskeyCheckName, reason: string): Effect.Effect<never, CheckFailure> =>
  Effect.fail({ check, reason })

const decodeBase64url = (text: string, field: string) => {
  const bytes = Encoding.fromBase64url(text, field)
  return bytes.ok ? Effect.succeed(bytes.value) : failure("format", bytes.error.message)
}

/** Byte equality of two base64url credential ids, so padding differences do not matter. */
export const sameCredentialId = (a: string, b: string): Effect.Effect<boolean, CheckFailure> =>
  Effect.zipWith(decodeBase64url(a, "credentialId"), decodeBase64url(b, "credentialId"), Encoding.equalBytes)

/**
 * Checks `clientDataJSON`: its `type`, its `challenge` (base64url of the UTF-8 bytes of the platform's challenge
 * string) and its `origin`.
 */
export const checkClientData = (
  clientDataJson: string,
  expectedType: "webauthn.create" | "webauthn.get",
  challenge: string,
  origins: ReadonlyArray<string>
): Effect.Effect<void, CheckFailure> =>
  Effect.gen(function* () {
    const bytes = yield* decodeBase64url(clientDataJson, "clientDataJson")
    const text = Encoding.fromUtf8(bytes, "clientDataJson")
    if (!text.ok) return yield* failure("format", text.error.message)
    let clientData: unknown
    try {
      clientData = JSON.parse(text.value)
    } catch {
      return yield* failure("format", "clientDataJson is not JSON")
    }
    if (typeof clientData !== "object" || clientData === null)
      return yield* failure("format", "clientDataJson is not an object")
    const { type, challenge: received, origin } = clientData as Record<string, unknown>
    if (type !== expectedType) return yield* failure("type", `expected ${expectedType}`)
    if (received !== Encoding.toBase64url(Encoding.toUtf8(challenge))) {
      return yield* failure("challenge", "the challenge is not the one issued")
    }
    if (typeof origin !== "string" || !origins.includes(origin)) {
      return yield* failure("origin", `origin ${String(origin)} is not allowed`)
    }
  })

/** Decodes an attestation object (CBOR) and returns its parsed authenticator data. */
export const decodeAttestedAuthData = (
  attestationObject: string
): Effect.Effect<ParsedAuthenticatorData, CheckFailure> =>
  Effect.flatMap(decodeBase64url(attestationObject, "attestationObject"), (bytes) => {
    try {
      return Effect.succeed(parseAuthenticatorData(decodeAttestationObject(Uint8Array.from(bytes)).get("authData")))
    } catch (error) {
      return failure("format", error instanceof Error ? error.message : "undecodable attestation object")
    }
  })

/**
 * Checks authenticator data: the RP ID hash, the user-presence flag and, when required, the user-verification flag.
 * Accepts raw bytes (assertions) or already parsed data (registrations).
 */
export const checkAuthenticatorData = (
  authenticatorData: Uint8Array | ParsedAuthenticatorData,
  rpId: string,
  requireUserVerification: boolean
): Effect.Effect<ParsedAuthenticatorData, CheckFailure> =>
  Effect.gen(function* () {
    let parsed: ParsedAuthenticatorData
    if (authenticatorData instanceof Uint8Array) {
      try {
        parsed = parseAuthenticatorData(Uint8Array.from(authenticatorData))
      } catch (error) {
        return yield* failure("format", error instanceof Error ? error.message : "undecodable authenticator data")
      }
    } else {
      parsed = authenticatorData
    }
    const rpIdHash = createHash("sha256").update(rpId, "utf8").digest()
    if (!Encoding.equalBytes(parsed.rpIdHash, rpIdHash)) return yield* failure("rpId", "the RP ID hash is not ours")
    if (!parsed.flags.up) return yield* failure("userPresence", "the user-presence flag is not set")
    if (requireUserVerification && !parsed.flags.uv) {
      return yield* failure("userVerification", "the user-verification flag is not set")
    }
    return parsed
  })
