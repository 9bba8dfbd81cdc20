import { DateTime, Duration, Effect, Either } from "effect"
import { expect } from "vitest"
import { Jobs, PlatformTime, ScaChallengeExpiryJob, ScaJobs } from "@payrail/core"
import type { Harness } from "../support/Harness.js"
import { quoteBody, requestsOf } from "../support/Requests.js"

/** The sandbox SCA code. */
export const code = "123456"

/**
 * What the SCA tests send: customers of an SCA region (FR, with a phone) or not (US), a funded USD account, an
 * external USD beneficiary, a quote paying it, and the run of a challenge's expiry job at a chosen time.
 */
export const scaOf = (api: Harness) => {
  const requests = requestsOf(api)
  const { send } = requests

  const customer = async (region = "FR") => {
    const created = await send("POST", "/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Marie Curie",
      region,
      phoneNumber: "+33612345678"
    })
    expect(created.status).toBe(201)
    const page = await send("GET", `/internal-accounts?customerId=${created.body.id}`)
    const usd = (page.body.data as ReadonlyArray<{ id: string; type: string; balance: { currency: { code: string } } }>)
      .filter((account) => account.type !== "EMBEDDED_WALLET" && account.balance.currency.code === "USD")
      .map((account) => account.id)[0]
    expect(usd).toBeDefined()
    return { id: created.body.id as string, usd: usd as string }
  }

  const funded = async (region = "FR") => {
    const made = await customer(region)
    expect((await send("POST", `/sandbox/internal-accounts/${made.usd}/fund`, { amount: 1_000_000 })).status).toBe(200)
    return made
  }

  let accountNumber = 100_000_000
  const beneficiary = async (customerId: string) => {
    accountNumber += 1
    const created = await send("POST", "/customers/external-accounts", {
      customerId,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: String(accountNumber),
        routingNumber: "021000021",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Pierre Curie" }
      }
    })
    expect(created.status).toBe(201)
    return created.body.id as string
  }

  const quote = async (source: string, destination: string, extra = {}) => {
    const created = await send("POST", "/quotes", quoteBody(source, destination, 1_000, extra))
    expect(created.status).toBe(201)
    return created.body
  }

  /** An SMS login of the customer: opens the SCA session that quote authorizations need. */
  const login = async (customerId: string) => {
    const path = (step: string) => `/sca/login/${step}?customerId=${encodeURIComponent(customerId)}`
    const started = await send("POST", path("start"), { factor: "SMS_OTP" })
    expect(started.status).toBe(200)
    const done = await send("POST", path("complete"), {
      factor: "SMS_OTP",
      endUserIpAddress: "203.0.113.9",
      challengeId: started.body.challengeId,
      code
    })
    expect(done.body.status).toBe("SUCCESS")
    return done.body.sessionExpiresAt as string
  }

  /**
   * A quote of an SCA customer (logged in, unless `loggedIn` is false) to an untrusted beneficiary, executed: it
   * waits in PENDING_AUTHORIZATION.
   */
  const held = async ({ loggedIn = true }: { readonly loggedIn?: boolean } = {}) => {
    const payer = await funded()
    if (loggedIn) await login(payer.id)
    const payee = await beneficiary(payer.id)
    const made = await quote(payer.usd, payee)
    const executed = await send("POST", `/quotes/${made.id}/execute`)
    expect(executed.status).toBe(200)
    expect(executed.body.status).toBe("PENDING_AUTHORIZATION")
    return { payer, payee, quote: executed.body }
  }

  /** Claims the expiry job of `challengeId` if it is due `after` from now, runs it then, and says whether it ran. */
  const expire = async (challengeId: string, after: Duration.Duration) => {
    const claimed = await api.run(
      Effect.gen(function* () {
        const jobs = yield* Jobs.Jobs
        const now = DateTime.addDuration(DateTime.unsafeNow(), after)
        const all = yield* jobs.claim({ limit: 1_000, now, lease: Duration.minutes(1) })
        const mine = all.filter(
          (candidate) =>
            candidate.job.kind === ScaChallengeExpiryJob.kind && candidate.job.payload["challengeId"] === challengeId
        )
        for (const other of all) if (!mine.includes(other)) yield* jobs.release(other)
        return mine
      })
    )
    for (const job of claimed) {
      const result = await api.run(
        PlatformTime.within(after)(Effect.either(Effect.flatMap(ScaJobs.ScaJobs, (jobs) => jobs.expire(job.job))))
      )
      expect(Either.isRight(result)).toBe(true)
      await api.run(Effect.flatMap(Jobs.Jobs, (jobs) => jobs.complete(job)))
    }
    return claimed.length > 0
  }

  return { ...requests, customer, funded, beneficiary, quote, login, held, expire }
}
