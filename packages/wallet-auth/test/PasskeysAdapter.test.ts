import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Passkeys } from "@payrail/core"
import { PasskeysAdapter, PasskeyVerifier } from "../src/index.js"
import { type Ceremony, SoftwareAuthenticator } from "./helpers/authenticator.js"

const relyingParty: Passkeys.RelyingParty = { rpId: "wallet.example.com", origins: ["https://wallet.example.com"] }
const otherPlatform: Passkeys.RelyingParty = { rpId: "pay.example.org", origins: ["https://pay.example.org"] }
const CHALLENGE = "5d41402abc4b2a76b9719d911017c592aee1d8f2c1d2b6ff7e3aa2b1c0d9e8f7"
const ceremony: Ceremony = { challenge: CHALLENGE, origin: "https://wallet.example.com", rpId: "wallet.example.com" }

const live = PasskeysAdapter.layer.pipe(Layer.provide(PasskeyVerifier.layer()))

const registered = (authenticator: SoftwareAuthenticator) =>
  Effect.flatMap(Passkeys.Passkeys, (passkeys) =>
    passkeys.verifyRegistration({
      challenge: CHALLENGE,
      attestation: { ...authenticator.register(ceremony), transports: ["internal", "hybrid"] },
      relyingParty
    })
  )

describe("PasskeysAdapter", () => {
  it.effect("registers a passkey (key as base64url COSE) and verifies its assertions with a rising counter", () =>
    Effect.gen(function* () {
      const passkeys = yield* Passkeys.Passkeys
      const authenticator = new SoftwareAuthenticator()
      const { credentialId, key } = yield* registered(authenticator)
      expect(credentialId).toBe(Buffer.from(authenticator.credentialId).toString("base64url"))
      expect(key).toEqual({
        publicKey: Buffer.from(authenticator.cosePublicKey).toString("base64url"),
        counter: 0,
        transports: ["internal", "hybrid"]
      })
      const first = yield* passkeys.verifyAssertion({
        challenge: CHALLENGE,
        assertion: authenticator.assert(ceremony),
        credentialId,
        key,
        relyingParty
      })
      expect(first).toEqual({ counter: 1 })
      const replay = authenticator.assert({ ...ceremony, counter: 1 })
      const error = yield* Effect.flip(
        passkeys.verifyAssertion({
          challenge: CHALLENGE,
          assertion: replay,
          credentialId,
          key: { ...key, counter: 1 },
          relyingParty
        })
      )
      expect([error._tag, error.code, error.details]).toEqual([
        "WalletAuthFailed",
        "UNAUTHORIZED",
        { check: "passkey_counter" }
      ])
    }).pipe(Effect.provide(live))
  )

  it.effect("checks each ceremony against the relying party of the call and names the failed check", () =>
    Effect.gen(function* () {
      const passkeys = yield* Passkeys.Passkeys
      const authenticator = new SoftwareAuthenticator()
      const { credentialId, key } = yield* registered(authenticator)
      const assertionCheck = (assertion: Passkeys.Assertion, party = relyingParty, id = credentialId) =>
        Effect.map(
          Effect.flip(
            passkeys.verifyAssertion({ challenge: CHALLENGE, assertion, credentialId: id, key, relyingParty: party })
          ),
          (error) => error.details.check
        )
      expect(yield* assertionCheck(authenticator.assert(ceremony), otherPlatform)).toBe("passkey_origin")
      expect(
        yield* assertionCheck(authenticator.assert(ceremony), { ...relyingParty, rpId: "other.example.com" })
      ).toBe("passkey_rp_id")
      expect(yield* assertionCheck(authenticator.assert({ ...ceremony, challenge: "00" }))).toBe("passkey_challenge")
      expect(yield* assertionCheck(authenticator.assert({ ...ceremony, flags: 0 }))).toBe("passkey_user_presence")
      expect(yield* assertionCheck(new SoftwareAuthenticator().assert(ceremony))).toBe("passkey_credential_id")
      const { signature } = new SoftwareAuthenticator({ credentialId: authenticator.credentialId }).assert(ceremony)
      expect(yield* assertionCheck({ ...authenticator.assert(ceremony), signature })).toBe("passkey_signature")
      expect(yield* assertionCheck({ ...authenticator.assert(ceremony), authenticatorData: "AAAA" })).toBe(
        "passkey_signature"
      )

      const registration = yield* Effect.flip(
        passkeys.verifyRegistration({
          challenge: CHALLENGE,
          attestation: { ...new SoftwareAuthenticator().register(ceremony), transports: [] },
          relyingParty: otherPlatform
        })
      )
      expect(registration.details.check).toBe("passkey_origin")
      const garbled = yield* Effect.flip(
        passkeys.verifyRegistration({
          challenge: CHALLENGE,
          attestation: { ...new SoftwareAuthenticator().register(ceremony), attestationObject: "_w", transports: [] },
          relyingParty
        })
      )
      expect(garbled.details.check).toBe("passkey_attestation")
    }).pipe(Effect.provide(live))
  )
})
