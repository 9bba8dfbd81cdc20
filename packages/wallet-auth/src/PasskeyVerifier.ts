import { Encoding } from "@payrail/wallet-protocol"
import {
  type AuthenticatorTransportFuture,
  verifyAuthenticationResponse,
  verifyRegistrationResponse
} from "@simplewebauthn/server"
import { Context, Effect, Layer, Schema } from "effect"
import {
  type CheckFailure,
  checkAuthenticatorData,
  checkClientData,
  decodeAttestedAuthData,
  PASSKEY_CHECKS,
  sameCredentialId
} from "./internal/webauthn.js"

/**
 * A passkey registration or assertion was refused; `check` names the failed rule: `format` (undecodable
 * base64url/JSON/CBOR/authenticator data), `credentialId` (not the expected credential), `type`, `challenge`,
 * `origin`, `rpId` (RP ID hash), `userPresence`, `userVerification`, `counter` (not above the stored counter),
 * `signature` (assertion) or `attestation` (registration statement or key algorithm). Maps to 401.
 */
export class PasskeyInvalid extends Schema.TaggedError<PasskeyInvalid>()("PasskeyInvalid", {
  check: Schema.Literal(...PASSKEY_CHECKS),
  reason: Schema.String
}) {}

/** A relying party: its RP ID and the origins allowed to run ceremonies for it (one per platform). */
export interface RelyingParty {
  readonly rpId: string
  readonly origins: ReadonlyArray<string>
}

/** Options of {@link layer}, the same for every relying party. */
export interface Options {
  /** Require the UV flag as well as UP; default false (presence is always required). */
  readonly requireUserVerification?: boolean
}

/** A registration as the API receives it (`attestation`, base64url fields; `clientDataJson` is WebAuthn's `clientDataJSON`). */
export interface PasskeyAttestation {
  readonly credentialId: string
  readonly clientDataJson: string
  readonly attestationObject: string
  readonly transports?: ReadonlyArray<string>
}

/** An assertion as the API receives it (`assertion`, base64url fields). */
export interface PasskeyAssertion {
  readonly credentialId: string
  readonly clientDataJson: string
  readonly authenticatorData: string
  readonly signature: string
  readonly userHandle?: string | null
}

/** What to store for a registered passkey. */
export interface RegisteredPasskey {
  /** The credential id, base64url without padding. */
  readonly credentialId: string
  /** The COSE public key, to pass back as {@link StoredPasskey.publicKey}. */
  readonly publicKey: Uint8Array
  readonly counter: number
  readonly transports: ReadonlyArray<string>
  readonly userVerified: boolean
  readonly backedUp: boolean
}

/** A stored passkey to verify an assertion against. */
export interface StoredPasskey {
  readonly credentialId: string
  readonly publicKey: Uint8Array
  readonly counter: number
}

/** An accepted assertion; store `newCounter`. */
export interface VerifiedAssertion {
  readonly newCounter: number
  readonly userVerified: boolean
}

/**
 * Verifies WebAuthn registrations and assertions for the relying party passed with each call. `challenge` is the
 * platform's challenge string, whose UTF-8 bytes are the WebAuthn challenge. Every check runs before the signature so the failure names the first rule broken;
 * `@simplewebauthn/server` then verifies attestation or signature. Stateless; safe to call concurrently.
 */
export interface PasskeyVerifierService {
  readonly verifyRegistration: (input: {
    readonly attestation: PasskeyAttestation
    readonly challenge: string
    readonly relyingParty: RelyingParty
  }) => Effect.Effect<RegisteredPasskey, PasskeyInvalid>
  readonly verifyAssertion: (input: {
    readonly assertion: PasskeyAssertion
    readonly challenge: string
    readonly credential: StoredPasskey
    readonly relyingParty: RelyingParty
  }) => Effect.Effect<VerifiedAssertion, PasskeyInvalid>
}

/** Tag of the {@link PasskeyVerifierService}. */
export class PasskeyVerifier extends Context.Tag("@payrail/wallet-auth/PasskeyVerifier")<
  PasskeyVerifier,
  PasskeyVerifierService
>() {}

const TRANSPORTS: ReadonlySet<string> = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])

const invalid = (check: PasskeyInvalid["check"], reason: string) => new PasskeyInvalid({ check, reason })

const toInvalid = (failure: CheckFailure) => invalid(failure.check, failure.reason)

const library = <A>(check: "signature" | "attestation", run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (error) => invalid(check, error instanceof Error ? error.message : String(error))
  })

const make = (options: Options): PasskeyVerifierService => {
  const requireUserVerification = options.requireUserVerification ?? false
  const expectations = (challenge: string, relyingParty: RelyingParty) => ({
    expectedChallenge: Encoding.toBase64url(Encoding.toUtf8(challenge)),
    expectedOrigin: [...relyingParty.origins],
    expectedRPID: relyingParty.rpId,
    requireUserVerification
  })

  const verifyRegistration: PasskeyVerifierService["verifyRegistration"] = ({ attestation, challenge, relyingParty }) =>
    Effect.gen(function* () {
      yield* Effect.mapError(
        checkClientData(attestation.clientDataJson, "webauthn.create", challenge, relyingParty.origins),
        toInvalid
      )
      const authData = yield* Effect.mapError(decodeAttestedAuthData(attestation.attestationObject), toInvalid)
      yield* Effect.mapError(checkAuthenticatorData(authData, relyingParty.rpId, requireUserVerification), toInvalid)
      if (authData.credentialID === undefined || authData.credentialPublicKey === undefined) {
        return yield* invalid("format", "the authenticator data carries no attested credential")
      }
      const credentialId = Encoding.toBase64url(authData.credentialID)
      if (!(yield* Effect.mapError(sameCredentialId(attestation.credentialId, credentialId), toInvalid))) {
        return yield* invalid("credentialId", "credentialId is not the credential the authenticator attested")
      }
      const transports = (attestation.transports ?? []).filter((t): t is AuthenticatorTransportFuture =>
        TRANSPORTS.has(t)
      )
      const result = yield* library("attestation", () =>
        verifyRegistrationResponse({
          response: {
            id: credentialId,
            rawId: credentialId,
            type: "public-key",
            response: {
              clientDataJSON: attestation.clientDataJson,
              attestationObject: attestation.attestationObject,
              transports
            },
            clientExtensionResults: {}
          },
          ...expectations(challenge, relyingParty)
        })
      )
      if (!result.verified) return yield* invalid("attestation", "the attestation statement does not verify")
      const info = result.registrationInfo
      return {
        credentialId,
        publicKey: info.credential.publicKey,
        counter: info.credential.counter,
        transports,
        userVerified: info.userVerified,
        backedUp: info.credentialBackedUp
      }
    })

  const verifyAssertion: PasskeyVerifierService["verifyAssertion"] = ({
    assertion,
    challenge,
    credential,
    relyingParty
  }) =>
    Effect.gen(function* () {
      if (!(yield* Effect.mapError(sameCredentialId(assertion.credentialId, credential.credentialId), toInvalid))) {
        return yield* invalid("credentialId", "the assertion is for another credential")
      }
      yield* Effect.mapError(
        checkClientData(assertion.clientDataJson, "webauthn.get", challenge, relyingParty.origins),
        toInvalid
      )
      const authenticatorData = Encoding.fromBase64url(assertion.authenticatorData, "authenticatorData")
      if (!authenticatorData.ok) return yield* invalid("format", authenticatorData.error.message)
      const authData = yield* Effect.mapError(
        checkAuthenticatorData(authenticatorData.value, relyingParty.rpId, requireUserVerification),
        toInvalid
      )
      if ((authData.counter > 0 || credential.counter > 0) && authData.counter <= credential.counter) {
        return yield* invalid("counter", `counter ${authData.counter} is not above the stored ${credential.counter}`)
      }
      const result = yield* library("signature", () =>
        verifyAuthenticationResponse({
          response: {
            id: assertion.credentialId,
            rawId: assertion.credentialId,
            type: "public-key",
            response: {
              clientDataJSON: assertion.clientDataJson,
              authenticatorData: assertion.authenticatorData,
              signature: assertion.signature,
              ...(typeof assertion.userHandle === "string" ? { userHandle: assertion.userHandle } : {})
            },
            clientExtensionResults: {}
          },
          credential: {
            id: credential.credentialId,
            publicKey: Uint8Array.from(credential.publicKey),
            counter: credential.counter
          },
          ...expectations(challenge, relyingParty)
        })
      )
      if (!result.verified) return yield* invalid("signature", "the assertion signature does not verify")
      return { newCounter: result.authenticationInfo.newCounter, userVerified: result.authenticationInfo.userVerified }
    })

  return { verifyRegistration, verifyAssertion }
}

/** The verifier; each call names its relying party. */
export const layer = (options: Options = {}): Layer.Layer<PasskeyVerifier> =>
  Layer.succeed(PasskeyVerifier, make(options))
