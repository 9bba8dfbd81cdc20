import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Console, Effect, Schema } from "effect"
import * as ApiCall from "./ApiCall.js"
import * as Progress from "./Progress.js"
import * as SeedPlan from "./SeedPlan.js"

/** What `payrail seed` needs to know. */
export interface Settings extends ApiCall.Target {
  readonly seed: number
  readonly customers: number
  readonly days: number
}

const Created = Schema.Struct({ id: Schema.String })
const AccountPage = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      type: Schema.String,
      balance: Schema.Struct({ currency: Schema.Struct({ code: Schema.String }) })
    })
  )
})
const Config = Schema.Struct({
  supportedCurrencies: Schema.Array(
    Schema.Struct({ currencyCode: Schema.String }, { key: Schema.String, value: Schema.Unknown })
  )
})

const secondsPerDay = 86_400

// The limits given to a currency the seed adds to the platform.
const limitsOf = (code: string) => ({
  currencyCode: code,
  minAmount: 1,
  maxAmount: code === "MXN" ? 10_000_000_000 : 1_000_000_000
})

const beneficiaryOf = (customer: SeedPlan.SeedCustomer) =>
  customer.customerType === "INDIVIDUAL"
    ? {
        beneficiaryType: "INDIVIDUAL",
        fullName: customer.fullName,
        birthDate: customer.birthDate,
        nationality: customer.nationality,
        address: customer.address
      }
    : { beneficiaryType: "BUSINESS", legalName: customer.businessInfo.legalName, address: customer.address }

/**
 * Fills the sandbox platform of the credentials, through the HTTP API of a running server, with the plan of
 * `SeedPlan.make(seed, customers, days)`: adds EUR and MXN to its currencies, creates the customers (their internal
 * accounts open with them) and external accounts, then plays each day's fundings, transfers, payouts and abandoned
 * quotes and moves the platform's sandbox clock a day ahead, so the history spans `days` days of the platform's time
 * and ends at its new "now" (its clock stays ahead of real time by that much). Transfers and payouts that settle
 * later do so as the clock moves, through the server's jobs. Prints the counts it promises first and reports
 * progress on stderr. Production platforms refuse the sandbox endpoints it needs (403).
 */
export const seed = (settings: Settings): Effect.Effect<SeedPlan.SeedPlan, ApiCall.StepFailed> =>
  Effect.gen(function* () {
    const api = ApiCall.baseUrl(settings)
    const send = ApiCall.send(yield* ApiCall.authenticated(settings))
    const call = <A, I>(
      step: string,
      method: "GET" | "POST" | "PATCH",
      path: string,
      schema: Schema.Schema<A, I>,
      body?: unknown
    ) => {
      const request = HttpClientRequest.make(method)(`${api}${path}`)
      return send(step, body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body), schema)
    }

    const plan = yield* SeedPlan.make(settings.seed, settings.customers, settings.days)
    const counts = SeedPlan.countsOf(plan)
    yield* Console.log(
      `Seeding ${api} (seed ${settings.seed}): ${counts.customers} customers (${counts.individuals} individuals, ` +
        `${counts.businesses} businesses, ${counts.countries} countries), ${counts.internalAccounts} internal and ` +
        `${counts.externalAccounts} external accounts, ${counts.transactions} transactions over ${settings.days} days ` +
        `(${counts.fundings} fundings, ${counts.sameCurrencyTransfers} same-currency and ${counts.crossCurrencyTransfers} ` +
        `cross-currency transfers, ${counts.payouts} payouts, ${counts.expiringQuotes} quotes left to expire)`
    )

    const config = yield* call("read the platform's configuration", "GET", "/config", Config)
    const held = config.supportedCurrencies.map((currency) => currency.currencyCode)
    const missing = SeedPlan.currencies.filter((code) => !held.includes(code))
    if (missing.length > 0) {
      yield* call("add currencies", "PATCH", "/config", Schema.Unknown, {
        supportedCurrencies: [...config.supportedCurrencies, ...missing.map(limitsOf)]
      })
    }

    const creating = yield* Progress.make("customers", plan.customers.length + plan.externalAccounts.length)
    const accounts: Array<Record<string, string>> = []
    const customerIds: Array<string> = []
    for (const customer of plan.customers) {
      const created = yield* call("create a customer", "POST", "/customers", Created, customer)
      const listed = yield* call(
        "list its accounts",
        "GET",
        `/internal-accounts?customerId=${created.id}&limit=100`,
        AccountPage
      )
      accounts.push(
        Object.fromEntries(
          listed.data
            .filter((account) => account.type !== "EMBEDDED_WALLET")
            .map((account) => [account.balance.currency.code, account.id])
        )
      )
      customerIds.push(created.id)
      yield* creating.advance(
        1,
        customer.customerType === "INDIVIDUAL" ? customer.fullName : customer.businessInfo.legalName
      )
    }
    const externals = new Map<number, string>()
    for (const { customer, suffix } of plan.externalAccounts) {
      const owner = plan.customers[customer] as SeedPlan.SeedCustomer
      const created = yield* call("create an external account", "POST", "/customers/external-accounts", Created, {
        customerId: customerIds[customer],
        currency: "USD",
        accountInfo: {
          accountType: "USD_ACCOUNT",
          accountNumber: `${4_000_000 + customer * 7}${suffix}`,
          routingNumber: "021000021",
          paymentRails: ["ACH", "WIRE", "RTP", "FEDNOW"],
          beneficiary: beneficiaryOf(owner)
        }
      })
      externals.set(customer, created.id)
      yield* creating.advance(1, "external account")
    }
    yield* creating.finish(
      `${plan.customers.length} customers and ${plan.externalAccounts.length} external accounts created`
    )

    const accountOf = (customer: number, currency: string) => accounts[customer]?.[currency] ?? ""
    const quote = (step: string, source: string, destination: string, amount: number, extra: object) =>
      call(step, "POST", "/quotes", Created, {
        source: { sourceType: "ACCOUNT", accountId: source },
        destination: { destinationType: "ACCOUNT", accountId: destination },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: amount,
        ...extra
      })

    const playing = yield* Progress.make("days", plan.days.length)
    for (const [day, operations] of plan.days.entries()) {
      for (const operation of operations) {
        switch (operation.kind) {
          case "fund":
            yield* call(
              "fund an account",
              "POST",
              `/sandbox/internal-accounts/${accountOf(operation.customer, operation.currency)}/fund`,
              Schema.Unknown,
              {
                amount: operation.amount
              }
            )
            break
          case "payout":
            yield* quote(
              "pay out",
              accountOf(operation.customer, "USD"),
              externals.get(operation.customer) ?? "",
              operation.amount,
              {
                description: "Payout",
                immediatelyExecute: true
              }
            )
            break
          case "transfer": {
            const quoted = yield* quote(
              "quote a transfer",
              accountOf(operation.from, "USD"),
              accountOf(operation.to, operation.toCurrency),
              operation.amount,
              { description: operation.toCurrency === "USD" ? "Transfer" : `Conversion to ${operation.toCurrency}` }
            )
            if (!operation.abandoned) {
              yield* call("execute a transfer", "POST", `/quotes/${quoted.id}/execute`, Schema.Unknown)
            }
          }
        }
      }
      yield* call("advance the sandbox clock", "POST", "/sandbox/clock/advance", Schema.Unknown, {
        seconds: secondsPerDay
      })
      yield* playing.advance(1, `day ${day + 1}: ${operations.length} transactions`)
    }
    yield* playing.finish(`${counts.transactions} transactions over ${plan.days.length} days`)
    yield* Console.log(
      `Seeded ${customerIds.length} customers; the platform's clock is now ${plan.days.length} days ahead.`
    )
    return plan
  }).pipe(Effect.provide(FetchHttpClient.layer))
