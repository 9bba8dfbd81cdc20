import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PasskeyVerifier } from "../src/index.js"
import { type Ceremony, FLAG_AT, FLAG_UP, SoftwareAuthenticator } from "./helpers/authenticator.js"

const RP_ID = "wallet.example.com"
const ORIGIN = "https://wallet.example.com"
const CHALLENGE = "9f2c4b1e0d8a7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b"
const ceremony: Ceremony = { challenge: CHALLENGE, origin: ORIGIN, rpId: RP_ID }

const relyingParty: PasskeyVerifier.RelyingParty = { rpId: RP_ID, origins: [ORIGIN, "android:apk-key-hash:abc"] }
const verifierLayer = PasskeyVerifier.layer()
const strictLayer = PasskeyVerifier.layer({ requireUserVerification: true })

const register = (authenticator: SoftwareAuthenticator) =>
  Effect.flatMap(PasskeyVerifier.PasskeyVerifier, (v) =>
    v.verifyRegistration({ attestation: authenticator.register(ceremony), challenge: CHALLENGE, relyingParty })
  )

describe("PasskeyVerifier registration", () => {
  it.effect("accepts a none-attestation registration and returns what to store", () =>
    Effect.gen(function* () {
      const authenticator = new SoftwareAuthenticator()
      const registered = yield* register(authenticator)
      expect(registered.credentialId).toBe(Buffer.from(authenticator.credentialId).toString("base64url"))
      expect(Buffer.from(registered.publicKey)).toEqual(Buffer.from(authenticator.cosePublicKey))
      expect([registered.counter, registered.userVerified, registered.transports]).toEqual([
        0,
        true,
        ["internal", "hybrid"]
      ])
    }).pipe(Effect.provide(verifierLayer))
  )

  const cases: ReadonlyArray<
    [string, (a: SoftwareAuthenticator) => PasskeyVerifier.PasskeyAttestation, PasskeyVerifier.PasskeyInvalid["check"]]
  > = [
    ["an assertion-type clientDataJSON", (a) => a.register({ ...ceremony, type: "webauthn.get" }), "type"],
    ["another challenge", (a) => a.register({ ...ceremony, challenge: "00" }), "challenge"],
    ["another origin", (a) => a.register({ ...ceremony, origin: "https://evil.example.com" }), "origin"],
    ["another RP ID", (a) => a.register({ ...ceremony, rpId: "evil.example.com" }), "rpId"],
    ["no user presence", (a) => a.register({ ...ceremony, flags: FLAG_AT }), "userPresence"],
    [
      "a credentialId that is not the attested one",
      (a) => ({ ...a.register(ceremony), credentialId: "AAAA" }),
      "credentialId"
    ],
    [
      "a none attestation with a statement",
      (a) => a.register(ceremony, new Map([["sig", Uint8Array.of(1)]])),
      "attestation"
    ],
    ["an attestationObject that is not CBOR", (a) => ({ ...a.register(ceremony), attestationObject: "_w" }), "format"],
    ["a clientDataJson that is not base64url", (a) => ({ ...a.register(ceremony), clientDataJson: "***" }), "format"]
  ]
  for (const [what, attestationOf, check] of cases) {
    it.effect(`refuses ${what} with check ${check}`, () =>
      Effect.gen(function* () {
        const verifier = yield* PasskeyVerifier.PasskeyVerifier
        const attestation = attestationOf(new SoftwareAuthenticator())
        const error = yield* Effect.flip(
          verifier.verifyRegistration({ attestation, challenge: CHALLENGE, relyingParty })
        )
        expect([error._tag, error.check]).toEqual(["PasskeyInvalid", check])
      }).pipe(Effect.provide(verifierLayer))
    )
  }

  it.effect("requires user verification when configured", () =>
    Effect.gen(function* () {
      const verifier = yield* PasskeyVerifier.PasskeyVerifier
      const attestation = new SoftwareAuthenticator().register({ ...ceremony, flags: FLAG_UP | FLAG_AT })
      const error = yield* Effect.flip(verifier.verifyRegistration({ attestation, challenge: CHALLENGE, relyingParty }))
      expect(error.check).toBe("userVerification")
    }).pipe(Effect.provide(strictLayer))
  )
})

describe("PasskeyVerifier assertion", () => {
  it.effect("accepts successive assertions with a rising counter", () =>
    Effect.gen(function* () {
      const verifier = yield* PasskeyVerifier.PasskeyVerifier
      const authenticator = new SoftwareAuthenticator()
      const registered = yield* register(authenticator)
      let credential = {
        credentialId: registered.credentialId,
        publicKey: registered.publicKey,
        counter: registered.counter
      }
      for (const expected of [1, 2]) {
        const verified = yield* verifier.verifyAssertion({
          assertion: authenticator.assert(ceremony),
          challenge: CHALLENGE,
          credential,
          relyingParty
        })
        expect(verified).toEqual({ newCounter: expected, userVerified: true })
        credential = { ...credential, counter: verified.newCounter }
      }
    }).pipe(Effect.provide(verifierLayer))
  )

  it.effect("accepts an authenticator that does not count signatures (counter stays 0)", () =>
    Effect.gen(function* () {
      const verifier = yield* PasskeyVerifier.PasskeyVerifier
      const authenticator = new SoftwareAuthenticator({ countsSignatures: false })
      const registered = yield* register(authenticator)
      const credential = { credentialId: registered.credentialId, publicKey: registered.publicKey, counter: 0 }
      const verified = yield* verifier.verifyAssertion({
        assertion: authenticator.assert(ceremony),
        challenge: CHALLENGE,
        credential,
        relyingParty
      })
      expect(verified.newCounter).toBe(0)
    }).pipe(Effect.provide(verifierLayer))
  )

  const cases: ReadonlyArray<
    [
      string,
      (a: SoftwareAuthenticator, other: SoftwareAuthenticator) => PasskeyVerifier.PasskeyAssertion,
      PasskeyVerifier.PasskeyInvalid["check"]
    ]
  > = [
    ["an assertion by another credential", (_, other) => other.assert(ceremony), "credentialId"],
    ["a registration-type clientDataJSON", (a) => a.assert({ ...ceremony, type: "webauthn.create" }), "type"],
    ["another challenge", (a) => a.assert({ ...ceremony, challenge: "ff" }), "challenge"],
    ["another origin", (a) => a.assert({ ...ceremony, origin: "https://evil.example.com" }), "origin"],
    ["another RP ID", (a) => a.assert({ ...ceremony, rpId: "evil.example.com" }), "rpId"],
    ["no user presence", (a) => a.assert({ ...ceremony, flags: 0 }), "userPresence"],
    ["a replayed counter", (a) => a.assert({ ...ceremony, counter: 5 }), "counter"],
    ["a lower counter", (a) => a.assert({ ...ceremony, counter: 4 }), "counter"],
    [
      "a signature by another key under the same credential id",
      (a) => new SoftwareAuthenticator({ credentialId: a.credentialId }).assert({ ...ceremony, counter: 6 }),
      "signature"
    ],
    [
      "a signature over other authenticator data",
      (a) => {
        const assertion = a.assert({ ...ceremony, counter: 6 })
        const other = a.assert({ ...ceremony, counter: 7 })
        return { ...assertion, signature: other.signature }
      },
      "signature"
    ],
    [
      "authenticator data that is too short",
      (a) => ({ ...a.assert({ ...ceremony, counter: 6 }), authenticatorData: "AAAA" }),
      "format"
    ]
  ]
  for (const [what, assertionOf, check] of cases) {
    it.effect(`refuses ${what} with check ${check}`, () =>
      Effect.gen(function* () {
        const verifier = yield* PasskeyVerifier.PasskeyVerifier
        const authenticator = new SoftwareAuthenticator()
        const registered = yield* register(authenticator)
        const credential = { credentialId: registered.credentialId, publicKey: registered.publicKey, counter: 5 }
        const assertion = assertionOf(authenticator, new SoftwareAuthenticator())
        const error = yield* Effect.flip(
          verifier.verifyAssertion({ assertion, challenge: CHALLENGE, credential, relyingParty })
        )
        expect([error._tag, error.check]).toEqual(["PasskeyInvalid", check])
      }).pipe(Effect.provide(verifierLayer))
    )
  }

  it.effect("requires user verification when configured", () =>
    Effect.gen(function* () {
      const verifier = yield* PasskeyVerifier.PasskeyVerifier
      const authenticator = new SoftwareAuthenticator()
      const registered = yield* register(authenticator)
      const credential = { credentialId: registered.credentialId, publicKey: registered.publicKey, counter: 0 }
      const assertion = authenticator.assert({ ...ceremony, flags: FLAG_UP })
      expect(
        (yield* Effect.flip(verifier.verifyAssertion({ assertion, challenge: CHALLENGE, credential, relyingParty })))
          .check
      ).toBe("userVerification")
    }).pipe(Effect.provide(strictLayer))
  )
})
