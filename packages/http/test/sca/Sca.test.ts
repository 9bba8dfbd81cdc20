import { DateTime, Duration, Effect } from "effect"
import { expect, it } from "vitest"
import { EnrolledFactor, Outbox, ScaRepo } from "@payrail/core"
import { describeOverHttp } from "../support/OverHttp.js"
import { quoteBody } from "../support/Requests.js"
import { code, scaOf } from "./ScaFixtures.js"

/*
 * Strong customer authentication over HTTP on every storage adapter (docs/sca.md), every answer checked against the
 * OpenAPI document by the harness: factors, logins and the lockout ladder, factor resets, trusted beneficiaries and
 * the authorization of quotes, with each refusal's status and body.
 */
describeOverHttp("strong customer authentication", {}, (api) => {
  const t = () => scaOf(api)
  const sca = (path: string, customerId: string) => `/sca/${path}?customerId=${encodeURIComponent(customerId)}`

  it("answers 409 CONFLICT (sca_not_used) to every SCA operation for a customer outside the SCA regions", async () => {
    const { refusal, customer, funded, beneficiary, quote } = t()
    const us = await funded("US")
    const refusals = await Promise.all([
      refusal("GET", sca("factors", us.id)),
      refusal("POST", sca("factors", us.id), { type: "TOTP" }),
      refusal("POST", sca("factors/confirm", us.id), { type: "TOTP", secret: "ABC", code }),
      refusal("DELETE", sca("factors/cred-1", us.id)),
      refusal("POST", sca("login/start", us.id), { factor: "SMS_OTP" }),
      refusal("POST", sca("login/complete", us.id), { factor: "SMS_OTP", endUserIpAddress: "203.0.113.9", code }),
      refusal("POST", sca("record-event", us.id), { eventType: "FAILED_LOGIN_ATTEMPT" }),
      refusal("POST", sca("factors/reset", us.id), { factor: "SMS_OTP" }),
      refusal("GET", sca("factors/reset/ScaReset:1", us.id)),
      refusal("POST", sca("factors/reset/ScaReset:1/complete", us.id), {})
    ])
    for (const answer of refusals) {
      expect(answer).toMatchObject({ status: 409, code: "CONFLICT", details: { rule: "sca_not_used" } })
    }
    const account = await beneficiary(us.id)
    const path = `/customers/external-accounts/${account}`
    expect(await refusal("POST", `${path}/trust`)).toMatchObject({ status: 409, details: { rule: "sca_not_used" } })
    expect(await refusal("POST", `${path}/untrust/confirm`, { code })).toMatchObject({ status: 409 })
    // A US customer's quote executes at once: nothing to authorize.
    const made = await quote(us.usd, account)
    expect((await t().send("POST", `/quotes/${made.id}/execute`)).body.status).toBe("PROCESSING")
    expect(await refusal("POST", `/quotes/${made.id}/authorize`, { code })).toMatchObject({
      status: 409,
      details: { rule: "sca_not_used" }
    })
    expect(await refusal("POST", `/quotes/${made.id}/authorize/resend`)).toMatchObject({ status: 409 })
    // Unknown customers are 404 as everywhere.
    expect((await refusal("GET", sca("factors", "Customer:00000000-0000-4000-8000-000000000000"))).status).toBe(404)
    expect((await refusal("GET", "/sca/factors")).code).toBe("INVALID_INPUT")
    void customer
  })

  it("lists SMS_OTP, enrolls a TOTP factor (wrong code 400, 123456 on sandbox) and lists it", async () => {
    const { send, refusal, customer } = t()
    const fr = await customer()
    expect((await send("GET", sca("factors", fr.id))).body).toEqual({ factors: [{ factor: "SMS_OTP" }] })
    const started = await send("POST", sca("factors", fr.id), { type: "TOTP" })
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ type: "TOTP", secretBase32Encoded: expect.stringMatching(/^[A-Z2-7]{32}$/) })
    expect(started.body.totpUri).toMatch(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]+/)
    const wrongSecret = await refusal("POST", sca("factors/confirm", fr.id), { type: "TOTP", secret: "AAAA", code })
    expect(wrongSecret).toMatchObject({ status: 400, code: "INVALID_INPUT", details: { rule: "enrollment_not_found" } })
    const confirm = { type: "TOTP", secret: started.body.secret, code: "12345x" }
    expect((await refusal("POST", sca("factors/confirm", fr.id), confirm)).details).toEqual({ rule: "code_mismatch" })
    const confirmed = await send("POST", sca("factors/confirm", fr.id), { ...confirm, code })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.type).toBe("TOTP")
    expect(confirmed.body.recoveryCodes).toHaveLength(8)
    expect((await send("GET", sca("factors", fr.id))).body).toEqual({
      factors: [{ factor: "SMS_OTP" }, { factor: "TOTP" }]
    })
    // A TOTP login needs no start material; the code completes it.
    expect((await send("POST", sca("login/start", fr.id), { factor: "TOTP" })).body).toEqual({ factor: "TOTP" })
    const totp = await send("POST", sca("login/complete", fr.id), { factor: "TOTP", endUserIpAddress: "::1", code })
    expect(totp.body.status).toBe("SUCCESS")
    // A recovery code stands in for the app's code, once.
    const recovery = { factor: "TOTP", endUserIpAddress: "::1", code: confirmed.body.recoveryCodes[0] }
    expect((await send("POST", sca("login/complete", fr.id), recovery)).body.status).toBe("SUCCESS")
    expect((await refusal("POST", sca("login/complete", fr.id), recovery)).details).toEqual({ rule: "code_mismatch" })
  })

  it("refuses a second passkey with 409 PASSKEY_ALREADY_ENROLLED and deletes a passkey by its credentialId", async () => {
    const { send, refusal, customer } = t()
    const fr = await customer()
    // Without the platform's relying party a passkey cannot be enrolled.
    expect(await refusal("POST", sca("factors", fr.id), { type: "PASSKEY" })).toMatchObject({
      status: 400,
      code: "INVALID_INPUT"
    })
    expect(
      await refusal("POST", sca("factors/confirm", fr.id), { type: "PASSKEY", origin: "https://a", credential: {} })
    ).toMatchObject({ status: 400, details: { rule: "enrollment_not_found" } })
    await api.run(
      Effect.flatMap(ScaRepo.ScaRepo, (repo) =>
        repo.putFactor(
          api.platform.id,
          new EnrolledFactor.EnrolledFactor({
            id: "ScaFactor:passkey",
            customerId: fr.id,
            factor: "PASSKEY",
            status: "ACTIVE",
            credentialId: "cred-1",
            name: "Phone",
            createdAt: DateTime.unsafeMake("2026-01-01T00:00:00Z")
          })
        )
      )
    )
    expect((await send("GET", sca("factors", fr.id))).body.factors).toContainEqual({
      factor: "PASSKEY",
      credentialId: "cred-1",
      name: "Phone"
    })
    expect(await refusal("POST", sca("factors", fr.id), { type: "PASSKEY" })).toMatchObject({
      status: 409,
      code: "PASSKEY_ALREADY_ENROLLED"
    })
    expect((await refusal("DELETE", sca("factors/cred-2", fr.id))).status).toBe(404)
    const deleted = await api.request(`/2025-10-13${sca("factors/cred-1", fr.id)}`, { method: "DELETE" })
    expect(deleted.status).toBe(204)
    expect((await send("GET", sca("factors", fr.id))).body).toEqual({ factors: [{ factor: "SMS_OTP" }] })
  })

  it("logs in with an SMS code; wrong codes climb the ladder to 423 ACCOUNT_LOCKED, a password reset clears it", async () => {
    const { send, refusal, customer } = t()
    const fr = await customer()
    const started = await send("POST", sca("login/start", fr.id), { factor: "SMS_OTP" })
    expect(started.body).toMatchObject({ factor: "SMS_OTP", challengeId: expect.stringMatching(/^ScaChallenge:/) })
    const complete = (body: Record<string, unknown>) =>
      send("POST", sca("login/complete", fr.id), {
        factor: "SMS_OTP",
        endUserIpAddress: "203.0.113.9",
        challengeId: started.body.challengeId,
        ...body
      })
    const done = await complete({ code })
    expect(done.status).toBe(200)
    expect(done.body.status).toBe("SUCCESS")
    expect(Date.parse(done.body.sessionExpiresAt) - Date.now()).toBeGreaterThan(14 * 60_000)
    // The challenge is single use.
    expect((await complete({ code })).body.details).toEqual({ rule: "challenge_not_found" })
    const again = await send("POST", sca("login/start", fr.id), { factor: "SMS_OTP" })
    const wrong = () =>
      send("POST", sca("login/complete", fr.id), {
        factor: "SMS_OTP",
        endUserIpAddress: "203.0.113.9",
        challengeId: again.body.challengeId,
        code: "000000"
      })
    for (let i = 0; i < 5; i++) expect((await wrong()).body.details).toEqual({ rule: "code_mismatch" })
    const locked = await refusal("POST", sca("login/complete", fr.id), {
      factor: "SMS_OTP",
      endUserIpAddress: "203.0.113.9",
      challengeId: again.body.challengeId,
      code
    })
    expect(locked).toMatchObject({ status: 423, code: "ACCOUNT_LOCKED" })
    expect(locked.details).toMatchObject({ suspended: false, failedAttempts: 5 })
    const until = Date.parse(String(locked.details["lockedUntil"]))
    expect(until - Date.now()).toBeGreaterThan(14 * 60_000)
    expect(until - Date.now()).toBeLessThanOrEqual(15 * 60_000)
    expect((await refusal("POST", sca("record-event", fr.id), { eventType: "FAILED_LOGIN_ATTEMPT" })).status).toBe(423)
    const reset = await send("POST", sca("record-event", fr.id), { eventType: "RESET_PASSWORD_COMPLETED" })
    expect(reset.body).toEqual({
      eventType: "RESET_PASSWORD_COMPLETED",
      suspended: false,
      lockedUntil: null,
      failedAttempts: 0
    })
    const fresh = await send("POST", sca("login/start", fr.id), { factor: "SMS_OTP" })
    const ok = await send("POST", sca("login/complete", fr.id), {
      factor: "SMS_OTP",
      endUserIpAddress: "203.0.113.9",
      challengeId: fresh.body.challengeId,
      code
    })
    expect(ok.body.status).toBe("SUCCESS")
    // A TOTP login without a TOTP factor is refused.
    expect((await refusal("POST", sca("login/start", fr.id), { factor: "TOTP" })).details).toEqual({
      rule: "factor_not_enrolled"
    })
  })

  it("resets a lost factor: 201 LIVENESS_PASSED on sandbox, complete 204, COMPLETED; 5 starts a day then 429", async () => {
    const { send, refusal, customer } = t()
    const fr = await customer()
    const secret = (await send("POST", sca("factors", fr.id), { type: "TOTP" })).body.secret
    await send("POST", sca("factors/confirm", fr.id), { type: "TOTP", secret, code })
    expect((await refusal("POST", sca("factors/reset", fr.id), { factor: "PASSKEY" })).details).toEqual({
      rule: "factor_not_enrolled"
    })
    const started = await send("POST", sca("factors/reset", fr.id), { factor: "TOTP" })
    expect(started.status).toBe(201)
    const status = sca(`factors/reset/${started.body.resetId}`, fr.id)
    expect((await send("GET", status)).body).toMatchObject({
      status: "LIVENESS_PASSED",
      factor: "TOTP",
      enrollmentStatus: "PENDING",
      completedAt: null
    })
    expect((await refusal("GET", sca("factors/reset/ScaReset:nope", fr.id))).status).toBe(404)
    const completed = await api.request(`/2025-10-13${sca(`factors/reset/${started.body.resetId}/complete`, fr.id)}`, {
      method: "POST",
      body: "{}"
    })
    expect(completed.status).toBe(204)
    expect((await send("GET", status)).body.status).toBe("COMPLETED")
    expect((await send("GET", sca("factors", fr.id))).body).toEqual({ factors: [{ factor: "SMS_OTP" }] })
    // Completed already: not ready to complete again.
    expect((await refusal("POST", sca(`factors/reset/${started.body.resetId}/complete`, fr.id), {})).details).toEqual({
      rule: "reset_not_ready"
    })
    // An SMS_OTP reset needs the new number, and sets it.
    const sms = await send("POST", sca("factors/reset", fr.id), { factor: "SMS_OTP" })
    const smsComplete = sca(`factors/reset/${sms.body.resetId}/complete`, fr.id)
    expect((await refusal("POST", smsComplete, {})).details).toEqual({ rule: "mobile_required" })
    const moved = await api.request(`/2025-10-13${smsComplete}`, {
      method: "POST",
      body: JSON.stringify({ mobile: { countryCode: "+33", number: "699999999" } })
    })
    expect(moved.status).toBe(204)
    expect((await send("GET", `/customers/${fr.id}`)).body.phoneNumber).toBe("+33699999999")
    for (let i = 0; i < 3; i++) {
      expect((await send("POST", sca("factors/reset", fr.id), { factor: "SMS_OTP" })).status).toBe(201)
    }
    const limited = await send("POST", sca("factors/reset", fr.id), { factor: "SMS_OTP" })
    expect(limited.status).toBe(429)
    expect(limited.body.code).toBe("RATE_LIMITED")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("decides a sandbox liveness check by the customer's platformCustomerId: liveness-fail REJECTED, liveness-review waits", async () => {
    const { send, refusal } = t()
    const customerEnding = async (suffix: string) => {
      const created = await send("POST", "/customers", {
        customerType: "INDIVIDUAL",
        platformCustomerId: `sca-${Date.now()}-${suffix}`,
        fullName: "Irène Joliot-Curie",
        region: "FR",
        phoneNumber: "+33612345679"
      })
      expect(created.status).toBe(201)
      return created.body.id as string
    }
    const failing = await customerEnding("liveness-fail")
    const started = await send("POST", sca("factors/reset", failing), { factor: "SMS_OTP" })
    expect(started.status).toBe(201)
    expect(started.body.verificationLink).toMatch(/^https:\/\//)
    const status = sca(`factors/reset/${started.body.resetId}`, failing)
    expect((await send("GET", status)).body.status).toBe("REJECTED")
    const complete = sca(`factors/reset/${started.body.resetId}/complete`, failing)
    const mobile = { mobile: { countryCode: "+33", number: "611111111" } }
    expect((await refusal("POST", complete, mobile)).details).toEqual({ rule: "reset_not_ready" })
    const reviewed = await customerEnding("liveness-review")
    const waiting = await send("POST", sca("factors/reset", reviewed), { factor: "SMS_OTP" })
    const waitingStatus = sca(`factors/reset/${waiting.body.resetId}`, reviewed)
    expect((await send("GET", waitingStatus)).body.status).toBe("PENDING_REVIEW")
    expect(
      (await refusal("POST", sca(`factors/reset/${waiting.body.resetId}/complete`, reviewed), mobile)).details
    ).toEqual({ rule: "reset_not_ready" })
  })

  it("trusts a beneficiary with an SMS code, whose payments then skip SCA; untrusts it the same way", async () => {
    const { send, refusal, funded, beneficiary, quote } = t()
    const payer = await funded()
    const payee = await beneficiary(payer.id)
    const path = `/customers/external-accounts/${payee}`
    expect(await refusal("POST", `${path}/trust/confirm`, { code })).toMatchObject({
      status: 409,
      details: { rule: "no_pending_challenge" }
    })
    const started = await send("POST", `${path}/trust`)
    expect(started.status).toBe(200)
    expect(started.body.scaChallenge).toMatchObject({ factor: "SMS_OTP", availableFactors: ["SMS_OTP"] })
    expect((await refusal("POST", `${path}/trust/confirm`, { code: "000000" })).details).toEqual({
      rule: "code_mismatch"
    })
    const trusted = await send("POST", `${path}/trust/confirm`, { challengeId: started.body.scaChallenge.id, code })
    expect(trusted.body).toEqual({ trusted: true })
    expect((await refusal("POST", `${path}/trust`)).details).toMatchObject({ rule: "beneficiary_already_trusted" })
    const made = await quote(payer.usd, payee)
    const executed = await send("POST", `/quotes/${made.id}/execute`)
    expect(executed.body.status).toBe("PROCESSING")
    expect(executed.body).not.toHaveProperty("scaChallenge")
    // A trusted beneficiary cannot be deleted: untrust it first.
    expect(await refusal("DELETE", path)).toMatchObject({
      status: 409,
      code: "BENEFICIARY_TRUSTED",
      details: { accountId: payee }
    })
    expect((await send("POST", `${path}/untrust`)).status).toBe(200)
    expect((await send("POST", `${path}/untrust/confirm`, { code })).body).toEqual({ trusted: false })
    expect((await refusal("POST", `${path}/untrust`)).details).toMatchObject({ rule: "beneficiary_not_trusted" })
    const after = await quote(payer.usd, payee)
    expect((await send("POST", `/quotes/${after.id}/execute`)).body.status).toBe("PENDING_AUTHORIZATION")
    expect((await api.request(`/2025-10-13${path}`, { method: "DELETE" })).status).toBe(204)
    expect(
      (await refusal("POST", "/customers/external-accounts/ExternalAccount:00000000-0000-4000-8000-000000000000/trust"))
        .status
    ).toBe(404)
  })

  it("holds an SCA customer's payment in PENDING_AUTHORIZATION; authorize executes it; execute again is 409", async () => {
    const { send, refusal } = t()
    const { quote } = await t().held()
    expect(quote.scaChallenge).toMatchObject({
      id: expect.stringMatching(/^ScaChallenge:/),
      factor: "SMS_OTP",
      availableFactors: ["SMS_OTP"]
    })
    const transaction = await send("GET", `/transactions/${quote.transactionId}`)
    expect(transaction.body.status).toBe("PENDING_AUTHORIZATION")
    expect((await refusal("POST", `/quotes/${quote.id}/execute`)).status).toBe(409)
    expect((await refusal("POST", `/quotes/${quote.id}/authorize`, {})).details).toEqual({ rule: "proof_missing" })
    const authorized = await send("POST", `/quotes/${quote.id}/authorize`, { code, endUserIpAddress: "203.0.113.9" })
    expect(authorized.status).toBe(200)
    expect(authorized.body.status).toBe("PROCESSING")
    expect(authorized.body).not.toHaveProperty("scaChallenge")
    expect((await send("GET", `/transactions/${quote.transactionId}`)).body.status).toBe("PROCESSING")
    expect(await refusal("POST", `/quotes/${quote.id}/authorize`, { code })).toMatchObject({
      status: 409,
      details: { rule: "no_pending_challenge" }
    })
  })

  it("accepts the reference's scaFactor SMS_OTP or PASSKEY on a quote and refuses TOTP, naming the field", async () => {
    const { beneficiary, funded, quote, send } = t()
    const payer = await funded()
    const payee = await beneficiary(payer.id)
    for (const scaFactor of ["SMS_OTP", "PASSKEY"]) {
      expect((await quote(payer.usd, payee, { scaFactor })).status).toBe("PENDING")
    }
    const totp = await send("POST", "/quotes", quoteBody(payer.usd, payee, 1_000, { scaFactor: "TOTP" }))
    expect(totp).toMatchObject({
      status: 400,
      body: { code: "INVALID_INPUT", details: { errors: [expect.objectContaining({ field: "scaFactor" })] } }
    })
  })

  it("refuses authorize with 409 SCA_SESSION_REQUIRED without an SCA login session, or once a password reset ended it", async () => {
    const { send, refusal, login } = t()
    const { quote, payer } = await t().held({ loggedIn: false })
    const authorize = () => refusal("POST", `/quotes/${quote.id}/authorize`, { code })
    expect(await authorize()).toMatchObject({
      status: 409,
      code: "SCA_SESSION_REQUIRED",
      details: { customerId: payer.id, sessionExpiredAt: null }
    })
    const sessionExpiresAt = await login(payer.id)
    expect(Date.parse(sessionExpiresAt) - Date.now()).toBeGreaterThan(179 * 86_400_000)
    const reset = await send("POST", sca("record-event", payer.id), { eventType: "RESET_PASSWORD_COMPLETED" })
    expect(reset.status).toBe(200)
    expect(await authorize()).toMatchObject({ status: 409, code: "SCA_SESSION_REQUIRED" })
    await login(payer.id)
    expect((await send("POST", `/quotes/${quote.id}/authorize`, { code })).body.status).toBe("PROCESSING")
  })

  it("holds a real-time funded quote to an untrusted beneficiary at creation (202), its instructions withheld until authorized", async () => {
    const { send, refusal, customer, beneficiary, login } = t()
    const payer = await customer()
    const realtime = (accountId: string) =>
      send("POST", "/quotes", {
        source: { sourceType: "REALTIME_FUNDING", currency: "USD", customerId: payer.id },
        destination: { destinationType: "ACCOUNT", accountId },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: 1_000
      })
    const created = await realtime(await beneficiary(payer.id))
    expect(created.status).toBe(202)
    expect(created.body).toMatchObject({
      status: "PENDING_AUTHORIZATION",
      paymentInstructions: [],
      scaChallenge: { factor: "SMS_OTP", availableFactors: ["SMS_OTP"] }
    })
    const quoteId = created.body.id as string
    const transactionOf = async () => (await send("GET", `/transactions/${created.body.transactionId}`)).body
    expect((await transactionOf()).status).toBe("PENDING_AUTHORIZATION")
    // The payer's money cannot execute it before it is authorized.
    expect((await refusal("POST", "/sandbox/send", { quoteId, currencyCode: "USD" })).status).toBe(409)
    await login(payer.id)
    const authorized = await send("POST", `/quotes/${quoteId}/authorize`, { code })
    expect(authorized.status).toBe(200)
    expect(authorized.body.status).toBe("PENDING")
    expect(authorized.body).not.toHaveProperty("scaChallenge")
    expect(authorized.body.paymentInstructions[0].accountOrWalletInfo.reference).toBe(
      (await transactionOf()).reconciliationInstructions.reference
    )
    expect((await transactionOf()).status).toBe("PENDING")
    expect((await send("GET", `/quotes/${quoteId}`)).body.status).toBe("PENDING")
    const sent = await send("POST", "/sandbox/send", { quoteId, currencyCode: "USD" })
    expect(sent.status).toBe(200)
    expect(sent.body.status).toBe("PROCESSING")
    // Funding the customer's own account needs no authorization: 201 with its instructions at once.
    const own = await realtime(payer.usd)
    expect(own.status).toBe(201)
    expect(own.body.status).toBe("PENDING")
    expect(own.body.paymentInstructions).not.toHaveLength(0)
  })

  it("holds immediatelyExecute too (201 PENDING_AUTHORIZATION); internal destinations are exempt", async () => {
    const { send, funded, beneficiary, quote } = t()
    const payer = await funded()
    const payee = await beneficiary(payer.id)
    const made = await quote(payer.usd, payee, { immediatelyExecute: true })
    expect(made.status).toBe("PENDING_AUTHORIZATION")
    const other = await funded()
    const internal = await quote(payer.usd, other.usd)
    expect((await send("POST", `/quotes/${internal.id}/execute`)).body.status).toBe("COMPLETED")
  })

  it("guards authorize against brute force (3 tries a minute, then 429) and resend against spam (3, then 429)", async () => {
    const { send, refusal } = t()
    const { quote } = await t().held()
    for (let i = 0; i < 3; i++) {
      const resent = await api.request(`/2025-10-13/quotes/${quote.id}/authorize/resend`, { method: "POST" })
      expect(resent.status).toBe(204)
    }
    const spam = await send("POST", `/quotes/${quote.id}/authorize/resend`)
    expect(spam.status).toBe(429)
    expect(Number(spam.headers.get("retry-after"))).toBeGreaterThan(0)
    for (let i = 0; i < 3; i++) {
      expect((await refusal("POST", `/quotes/${quote.id}/authorize`, { code: "000000" })).details).toEqual({
        rule: "code_mismatch"
      })
    }
    const guarded = await send("POST", `/quotes/${quote.id}/authorize`, { code })
    expect(guarded.status).toBe(429)
    expect(guarded.body.code).toBe("RATE_LIMITED")
    expect(Number(guarded.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("fails a payment whose challenge lapses with SCA_NOT_COMPLETED (quote and transaction FAILED)", async () => {
    const { send, refusal, expire } = t()
    const { quote } = await t().held()
    expect(await expire(quote.scaChallenge.id, Duration.minutes(1))).toBe(false)
    expect(await expire(quote.scaChallenge.id, Duration.minutes(6))).toBe(true)
    const failed = await send("GET", `/quotes/${quote.id}`)
    expect(failed.body.status).toBe("FAILED")
    expect(failed.body).not.toHaveProperty("scaChallenge")
    const transaction = await send("GET", `/transactions/${quote.transactionId}`)
    expect(transaction.body).toMatchObject({ status: "FAILED", failureReason: "SCA_NOT_COMPLETED" })
    // Both changes went out as the transaction's webhooks, recorded with them.
    const events = await api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)))
    const mine = events.filter((event) => event.data["id"] === quote.transactionId)
    expect(mine.map((event) => [event.type, event.data["status"], event.data["failureReason"]])).toEqual([
      ["OUTGOING_PAYMENT", "PENDING_AUTHORIZATION", undefined],
      ["OUTGOING_PAYMENT", "FAILED", "SCA_NOT_COMPLETED"]
    ])
    expect(await refusal("POST", `/quotes/${quote.id}/authorize`, { code })).toMatchObject({ status: 409 })
  })
})

describeOverHttp("the SCA lockout ladder on the sandbox clock", {}, (api) => {
  it("locks 15 min, 30 min, 1 h, 24 h at 5-8 failures and suspends at 9, until a password reset", async () => {
    const { send, refusal, customer } = scaOf(api)
    const fr = await customer()
    const event = (eventType: string) => send("POST", `/sca/record-event?customerId=${fr.id}`, { eventType })
    const advance = async (seconds: number) =>
      expect((await send("POST", "/sandbox/clock/advance", { seconds })).status).toBe(200)
    for (let i = 1; i <= 4; i++) {
      expect((await event("FAILED_LOGIN_ATTEMPT")).body).toMatchObject({ failedAttempts: i, lockedUntil: null })
    }
    const ladder: ReadonlyArray<readonly [number, number]> = [
      [5, 15 * 60],
      [6, 30 * 60],
      [7, 60 * 60],
      [8, 24 * 60 * 60]
    ]
    for (const [failedAttempts, seconds] of ladder) {
      const locked = await event("FAILED_LOGIN_ATTEMPT")
      expect(locked.body).toMatchObject({ failedAttempts, suspended: false })
      const clock = (await send("GET", "/sandbox/clock")).body
      const now = Date.parse(clock.currentTime)
      expect(Math.round((Date.parse(locked.body.lockedUntil) - now) / 1000)).toBeGreaterThanOrEqual(seconds - 5)
      expect(
        (await refusal("POST", `/sca/record-event?customerId=${fr.id}`, { eventType: "FAILED_LOGIN_ATTEMPT" })).status
      ).toBe(423)
      await advance(seconds - 2)
      expect(
        (await refusal("POST", `/sca/record-event?customerId=${fr.id}`, { eventType: "FAILED_LOGIN_ATTEMPT" })).status
      ).toBe(423)
      await advance(3)
    }
    const suspended = await event("FAILED_LOGIN_ATTEMPT")
    expect(suspended.body).toEqual({
      eventType: "FAILED_LOGIN_ATTEMPT",
      suspended: true,
      lockedUntil: null,
      failedAttempts: 9
    })
    await advance(7 * 24 * 60 * 60)
    const still = await refusal("POST", `/sca/login/complete?customerId=${fr.id}`, {
      factor: "TOTP",
      endUserIpAddress: "203.0.113.9",
      code
    })
    expect(still).toMatchObject({
      status: 423,
      code: "ACCOUNT_LOCKED",
      details: { suspended: true, lockedUntil: null, failedAttempts: 9 }
    })
    expect((await event("RESET_PASSWORD_COMPLETED")).body).toMatchObject({ suspended: false, failedAttempts: 0 })
  })

  it("ends the SCA session after 180 days: authorizing is then 409 SCA_SESSION_REQUIRED until the next login", async () => {
    const { send, refusal, funded, beneficiary, quote, login } = scaOf(api)
    const payer = await funded()
    const sessionExpiresAt = await login(payer.id)
    expect((await send("POST", "/sandbox/clock/advance", { seconds: 181 * 86_400 })).status).toBe(200)
    const made = await quote(payer.usd, await beneficiary(payer.id))
    const held = await send("POST", `/quotes/${made.id}/execute`)
    expect(held.body.status).toBe("PENDING_AUTHORIZATION")
    const refused = await refusal("POST", `/quotes/${made.id}/authorize`, { code })
    expect(refused).toMatchObject({ status: 409, code: "SCA_SESSION_REQUIRED", details: { customerId: payer.id } })
    expect(Date.parse(String(refused.details["sessionExpiredAt"]))).toBe(Date.parse(sessionExpiresAt))
    await login(payer.id)
    expect((await send("POST", `/quotes/${made.id}/authorize`, { code })).body.status).toBe("PROCESSING")
  })
})
