import { Effect, Option, Redacted } from "effect"
import { expect, it } from "vitest"
import { Totp } from "@payrail/core"
import { SandboxOtpDelivery } from "@payrail/sandbox"
import { describeOverHttp } from "../support/OverHttp.js"
import { scaOf } from "./ScaFixtures.js"

const phone = "+33612345678"

/*
 * SCA on a production platform: SMS codes are random and delivered through `OtpDelivery` (the sandbox outbox
 * captures them here), and TOTP codes are checked per RFC 6238; `123456` is just a wrong code.
 */
describeOverHttp("strong customer authentication on a production platform", { environment: "PRODUCTION" }, (api) => {
  const sca = (path: string, customerId: string) => `/sca/${path}?customerId=${encodeURIComponent(customerId)}`
  const latestCode = async () => {
    const message = await api.run(
      Effect.flatMap(SandboxOtpDelivery.SandboxOtpOutbox, (outbox) => outbox.latest(api.platform.id, phone))
    )
    const delivered = Option.getOrThrow(message)
    expect(delivered.channel).toBe("SMS")
    return Redacted.value(delivered.code)
  }

  it("sends a random SMS code for a login and accepts only that code", async () => {
    const { send, customer } = scaOf(api)
    const fr = await customer()
    const started = await send("POST", sca("login/start", fr.id), { factor: "SMS_OTP" })
    expect(started.status).toBe(200)
    const sent = await latestCode()
    expect(sent).toMatch(/^[0-9]{6}$/)
    const complete = (code: string) =>
      send("POST", sca("login/complete", fr.id), {
        factor: "SMS_OTP",
        endUserIpAddress: "203.0.113.9",
        challengeId: started.body.challengeId,
        code
      })
    const wrong = sent === "123456" ? "654321" : "123456"
    expect((await complete(wrong)).body.details).toEqual({ rule: "code_mismatch" })
    expect((await complete(sent)).body.status).toBe("SUCCESS")
  })

  it("enrolls TOTP with the authenticator's RFC 6238 code, and logs in with the code of now", async () => {
    const { send, refusal, customer } = scaOf(api)
    const fr = await customer()
    const started = await send("POST", sca("factors", fr.id), { type: "TOTP" })
    const secret = Totp.fromBase32(started.body.secretBase32Encoded)
    const now = await api.run(Totp.codeAt(secret, Date.now()))
    const wrong = now === "123456" ? "654321" : "123456"
    const confirm = (code: string) => ({ type: "TOTP", secret: started.body.secret, code })
    expect((await refusal("POST", sca("factors/confirm", fr.id), confirm(wrong))).details).toEqual({
      rule: "code_mismatch"
    })
    const confirmed = await send("POST", sca("factors/confirm", fr.id), confirm(now))
    expect(confirmed.status).toBe(200)
    const login = (code: string) =>
      send("POST", sca("login/complete", fr.id), { factor: "TOTP", endUserIpAddress: "203.0.113.9", code })
    expect((await login(wrong)).status).toBe(400)
    const current = await api.run(Totp.codeAt(secret, Date.now()))
    expect((await login(current)).body.status).toBe("SUCCESS")
  })

  it("refuses a factor reset with 501 NOT_IMPLEMENTED while no liveness provider serves production platforms", async () => {
    const { refusal, customer } = scaOf(api)
    const fr = await customer()
    for (let i = 0; i < 6; i++) {
      const refused = await refusal("POST", sca("factors/reset", fr.id), { factor: "SMS_OTP" })
      expect(refused).toMatchObject({
        status: 501,
        code: "NOT_IMPLEMENTED",
        details: { rule: "liveness_provider_not_configured", environment: "PRODUCTION" }
      })
    }
  })
})
