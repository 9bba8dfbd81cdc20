import { SoftwareAuthenticator } from "@payrail/wallet-auth/test/helpers/authenticator"
import { expect, it } from "vitest"
import { describeOverHttp } from "../support/OverHttp.js"
import { code, scaOf } from "./ScaFixtures.js"

const rpId = "app.payrail.test"
const origin = `https://${rpId}`

// WebAuthn's JSON options carry the challenge's bytes in base64url; the software authenticator takes the challenge
// as the string whose UTF-8 bytes it signs, as a browser given those bytes would.
const challengeOf = (options: { readonly challenge: string }) =>
  Buffer.from(options.challenge, "base64url").toString("utf8")

// What `navigator.credentials.get()` hands a page, as `PublicKeyCredential.toJSON()` spells it.
const assertionJson = (authenticator: SoftwareAuthenticator, options: { readonly challenge: string }) => {
  const signed = authenticator.assert({ challenge: challengeOf(options), origin, rpId })
  return {
    id: signed.credentialId,
    rawId: signed.credentialId,
    type: "public-key",
    response: {
      clientDataJSON: signed.clientDataJson,
      authenticatorData: signed.authenticatorData,
      signature: signed.signature
    }
  }
}

/*
 * A passkey factor satisfies SCA (docs/sca.md): real WebAuthn ceremonies with a software authenticator, verified by
 * the `Passkeys` port of `@payrail/wallet-auth`, for logins, quote authorizations and trust changes; a passkey that is
 * not the customer's, an origin that is not the platform's, and a replayed assertion are refused.
 */
describeOverHttp("SCA with a passkey", {}, (api) => {
  const sca = (path: string, customerId: string) => `/sca/${path}?customerId=${encodeURIComponent(customerId)}`

  // The platform's relying party, as an integrator sets it (idempotent).
  const configure = async () => {
    const { send } = scaOf(api)
    const configured = await send("PATCH", "/config", {
      embeddedWalletConfig: { appName: "SCA test", passkeyRpId: rpId, passkeyOrigins: [origin] }
    })
    expect(configured.status).toBe(200)
  }

  // A customer of an SCA region with a passkey enrolled through the API's registration ceremony.
  const enrolled = async () => {
    await configure()
    const t = scaOf(api)
    const payer = await t.funded()
    const authenticator = new SoftwareAuthenticator()
    const started = await t.send("POST", sca("factors", payer.id), { type: "PASSKEY" })
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ type: "PASSKEY", relyingPartyId: rpId, allowedOrigins: [origin] })
    const registration = authenticator.register({ challenge: challengeOf(started.body.options), origin, rpId })
    const confirmed = await t.send("POST", sca("factors/confirm", payer.id), {
      type: "PASSKEY",
      origin,
      credential: {
        id: registration.credentialId,
        rawId: registration.credentialId,
        type: "public-key",
        response: { clientDataJSON: registration.clientDataJson, attestationObject: registration.attestationObject }
      }
    })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.factor).toEqual({ factor: "PASSKEY", credentialId: registration.credentialId })
    return { ...t, payer, authenticator }
  }

  it("logs in with a passkey assertion; a replayed assertion, another passkey or another origin is refused", async () => {
    const { send, refusal, payer, authenticator } = await enrolled()
    const start = () => send("POST", sca("login/start", payer.id), { factor: "PASSKEY" })
    const started = await start()
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({
      factor: "PASSKEY",
      allowedOrigins: [origin],
      relyingPartyId: rpId,
      passkeyOptions: { rpId, allowCredentials: [{ type: "public-key", id: expect.any(String) }] }
    })
    const complete = (passkeyAssertion: unknown, from = origin) =>
      send("POST", sca("login/complete", payer.id), {
        factor: "PASSKEY",
        endUserIpAddress: "203.0.113.9",
        passkeyAssertion,
        origin: from
      })
    const assertion = assertionJson(authenticator, started.body.passkeyOptions)
    const done = await complete(assertion)
    expect(done.status).toBe(200)
    expect(done.body.status).toBe("SUCCESS")
    expect(Date.parse(done.body.sessionExpiresAt) - Date.now()).toBeGreaterThan(179 * 86_400_000)
    // The challenge was single use: the same assertion again finds nothing to satisfy.
    expect((await complete(assertion)).body.details).toEqual({ rule: "challenge_not_found" })
    // A fresh challenge: the old assertion does not answer it, nor does a passkey the customer never enrolled.
    const again = await start()
    expect((await complete(assertion)).body.details).toEqual({ rule: "passkey_invalid" })
    expect(
      (await complete(assertionJson(new SoftwareAuthenticator(), again.body.passkeyOptions))).body.details
    ).toEqual({ rule: "passkey_invalid" })
    // An origin that is not the platform's is refused before any signature is looked at.
    const signed = assertionJson(authenticator, again.body.passkeyOptions)
    expect((await complete(signed, "https://evil.example")).body.details).toEqual({ rule: "passkey_invalid" })
    // Every refusal counted on the lockout ladder; the right assertion clears it.
    const state = await send("POST", sca("record-event", payer.id), { eventType: "FAILED_LOGIN_ATTEMPT" })
    expect(state.body.failedAttempts).toBe(4)
    expect((await complete(signed)).body.status).toBe("SUCCESS")
    // A code cannot answer a passkey login, and a passkey start without a passkey is refused.
    expect(
      await refusal("POST", sca("login/complete", payer.id), { factor: "PASSKEY", endUserIpAddress: "::1", code })
    ).toMatchObject({ status: 400 })
    const other = await scaOf(api).customer()
    expect((await refusal("POST", sca("login/start", other.id), { factor: "PASSKEY" })).details).toEqual({
      rule: "factor_not_enrolled"
    })
  })

  it("authorizes a held payment with a passkey assertion; a wrong or replayed one is refused", async () => {
    const { send, refusal, payer, authenticator, beneficiary, quote, login } = await enrolled()
    await login(payer.id)
    const payee = await beneficiary(payer.id)
    const hold = async () => {
      const made = await quote(payer.usd, payee)
      const executed = await send("POST", `/quotes/${made.id}/execute`)
      expect(executed.body.status).toBe("PENDING_AUTHORIZATION")
      return executed.body
    }
    const held = await hold()
    expect(held.scaChallenge).toMatchObject({
      factor: "SMS_OTP",
      availableFactors: ["SMS_OTP", "PASSKEY"],
      passkeyAllowedOrigins: [origin],
      passkeyAssertionOptions: { rpId, challenge: expect.any(String) }
    })
    const authorize = (id: string, passkeyAssertion: unknown) =>
      send("POST", `/quotes/${id}/authorize`, { passkeyAssertion, origin, endUserIpAddress: "203.0.113.9" })
    const stranger = assertionJson(new SoftwareAuthenticator(), held.scaChallenge.passkeyAssertionOptions)
    expect((await authorize(held.id, stranger)).body.details).toEqual({ rule: "passkey_invalid" })
    const assertion = assertionJson(authenticator, held.scaChallenge.passkeyAssertionOptions)
    const authorized = await authorize(held.id, assertion)
    expect(authorized.status).toBe(200)
    expect(authorized.body.status).toBe("PROCESSING")
    expect(authorized.body).not.toHaveProperty("scaChallenge")
    // Replayed on the same quote: nothing pending; on another quote's challenge: not its challenge.
    expect(
      await refusal("POST", `/quotes/${held.id}/authorize`, { passkeyAssertion: assertion, origin })
    ).toMatchObject({ status: 409, details: { rule: "no_pending_challenge" } })
    const next = await hold()
    expect((await authorize(next.id, assertion)).body.details).toEqual({ rule: "passkey_invalid" })
    // The SMS code still satisfies it.
    expect((await send("POST", `/quotes/${next.id}/authorize`, { code })).body.status).toBe("PROCESSING")
  })

  it("trusts and untrusts a beneficiary with a passkey assertion", async () => {
    const { send, refusal, payer, authenticator, beneficiary } = await enrolled()
    const payee = await beneficiary(payer.id)
    const path = `/customers/external-accounts/${payee}`
    const started = await send("POST", `${path}/trust`)
    expect(started.body.scaChallenge.availableFactors).toEqual(["SMS_OTP", "PASSKEY"])
    const options = started.body.scaChallenge.passkeyAssertionOptions
    expect(
      (await refusal("POST", `${path}/trust/confirm`, { passkeyAssertion: assertionJson(authenticator, options) }))
        .details
    ).toEqual({ rule: "proof_missing" })
    const trusted = await send("POST", `${path}/trust/confirm`, {
      passkeyAssertion: assertionJson(authenticator, options),
      origin
    })
    expect(trusted.body).toEqual({ trusted: true })
    const untrust = await send("POST", `${path}/untrust`)
    const untrusted = await send("POST", `${path}/untrust/confirm`, {
      challengeId: untrust.body.scaChallenge.id,
      passkeyAssertion: assertionJson(authenticator, untrust.body.scaChallenge.passkeyAssertionOptions),
      origin
    })
    expect(untrusted.body).toEqual({ trusted: false })
  })
})
