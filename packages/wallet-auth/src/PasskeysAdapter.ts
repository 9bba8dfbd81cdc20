import { Encoding } from "@payrail/wallet-protocol"
import { Effect, Layer } from "effect"
import { type AuthMethod, Passkeys, WalletErrors } from "@payrail/core"
import * as PasskeyVerifier from "./PasskeyVerifier.js"

type Check = PasskeyVerifier.PasskeyInvalid["check"]

const checks: Readonly<Record<Exclude<Check, "format">, WalletErrors.AuthCheck>> = {
  credentialId: "passkey_credential_id",
  type: "passkey_challenge",
  challenge: "passkey_challenge",
  origin: "passkey_origin",
  rpId: "passkey_rp_id",
  userPresence: "passkey_user_presence",
  userVerification: "passkey_user_presence",
  counter: "passkey_counter",
  signature: "passkey_signature",
  attestation: "passkey_attestation"
}

/** The `AuthCheck` of a refused ceremony; undecodable input counts against the attestation or the signature. */
export const authCheckOf = (check: Check, ceremony: "registration" | "assertion"): WalletErrors.AuthCheck =>
  check === "format" ? (ceremony === "registration" ? "passkey_attestation" : "passkey_signature") : checks[check]

const refused = (ceremony: "registration" | "assertion") => (error: PasskeyVerifier.PasskeyInvalid) =>
  WalletErrors.WalletAuthFailed.of(
    authCheckOf(error.check, ceremony),
    `The passkey ${ceremony} was refused: ${error.reason}`
  )

/**
 * Core's `Passkeys` on {@link PasskeyVerifier}, with the platform's relying party passed per call. A registration
 * succeeds with the credential id and the key to store (COSE public key as base64url, counter, transports); an
 * assertion with the new counter. Each refusal is `WalletAuthFailed` naming the check (`passkey_challenge`,
 * `passkey_origin`, `passkey_rp_id`, `passkey_user_presence`, `passkey_counter`, `passkey_signature`,
 * `passkey_credential_id`, `passkey_attestation`). A stored key that is not base64url is a defect.
 */
export const layer: Layer.Layer<Passkeys.Passkeys, never, PasskeyVerifier.PasskeyVerifier> = Layer.effect(
  Passkeys.Passkeys,
  Effect.map(PasskeyVerifier.PasskeyVerifier, (verifier) => ({
    verifyRegistration: Effect.fn("Passkeys.verifyRegistration")(
      (input: {
        readonly challenge: string
        readonly attestation: Passkeys.Attestation
        readonly relyingParty: Passkeys.RelyingParty
      }) =>
        verifier
          .verifyRegistration({
            attestation: input.attestation,
            challenge: input.challenge,
            relyingParty: input.relyingParty
          })
          .pipe(
            Effect.map((registered) => ({
              credentialId: registered.credentialId,
              key: {
                publicKey: Encoding.toBase64url(registered.publicKey),
                counter: registered.counter,
                transports: registered.transports
              }
            })),
            Effect.mapError(refused("registration"))
          )
    ),
    verifyAssertion: Effect.fn("Passkeys.verifyAssertion")(function* (input: {
      readonly challenge: string
      readonly assertion: Passkeys.Assertion
      readonly credentialId: string
      readonly key: AuthMethod.PasskeyKey
      readonly relyingParty: Passkeys.RelyingParty
    }) {
      const publicKey = Encoding.fromBase64url(input.key.publicKey, "publicKey")
      if (!publicKey.ok) return yield* Effect.dieMessage("a stored passkey public key is not base64url")
      const { userHandle, ...assertion } = input.assertion
      const verified = yield* verifier
        .verifyAssertion({
          assertion: userHandle === undefined ? assertion : { ...assertion, userHandle },
          challenge: input.challenge,
          credential: { credentialId: input.credentialId, publicKey: publicKey.value, counter: input.key.counter },
          relyingParty: input.relyingParty
        })
        .pipe(Effect.mapError(refused("assertion")))
      return { counter: verified.newCounter }
    })
  }))
)
