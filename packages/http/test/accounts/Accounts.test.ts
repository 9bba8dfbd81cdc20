import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  AccountTypeCurrency,
  ExternalAccountInfo,
  Ledger,
  PaymentRails,
  Platform,
  Platforms,
  SystemAccounts
} from "@payrail/core"
import { Effect } from "effect"
import { AccountInfoExamples } from "@payrail/storage-testkit"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`accounts over HTTP on ${adapter.name}`, () => {
    let api: Harness
    const harness = (options: Parameters<typeof makeHarness>[0] = {}) =>
      makeHarness({ ...options, storage: adapter.storage() })

    beforeAll(async () => {
      api = await harness()
    })
    afterAll(() => api.dispose())

    const json = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) })

    const newCustomer = async (on?: Harness, email = "wallet@example.com") => {
      const response = await (on ?? api).request(
        `${base}/customers`,
        json({ customerType: "INDIVIDUAL", fullName: "Kim Lee", email })
      )
      expect(response.status).toBe(201)
      return (await response.json()) as { id: string }
    }

    const usdAccount = (accountNumber: string) => ({
      accountType: "USD_ACCOUNT",
      accountNumber,
      routingNumber: "021000021",
      beneficiary: {
        beneficiaryType: "INDIVIDUAL",
        fullName: "Kim Lee",
        birthDate: "1990-01-15",
        nationality: "US",
        address: { line1: "1 Main St", city: "New York", state: "NY", postalCode: "10001", country: "US" }
      }
    })

    describe("internal accounts", () => {
      it("opens a USD account and an embedded USDC wallet with the customer, both empty", async () => {
        const customer = await newCustomer()
        const page = await (await api.request(`${base}/internal-accounts?customerId=${customer.id}`)).json()
        expect(page).toMatchObject({ hasMore: false, totalCount: 2 })
        const byType = Object.fromEntries(page.data.map((account: { type: string }) => [account.type, account]))
        expect(byType.EMBEDDED_WALLET).toMatchObject({
          customerId: customer.id,
          status: "ACTIVE",
          balance: { amount: 0, currency: { code: "USDC", decimals: 6 } },
          totalBalance: { amount: 0, currency: { code: "USDC", decimals: 6 } },
          fundingPaymentInstructions: []
        })
        expect(byType.INTERNAL_FIAT).toMatchObject({ balance: { amount: 0, currency: { code: "USD", decimals: 2 } } })
        const alias = await (
          await api.request(`${base}/customers/internal-accounts?customerId=${customer.id}&type=EMBEDDED_WALLET`)
        ).json()
        expect(alias.data.map((account: { id: string }) => account.id)).toEqual([byType.EMBEDDED_WALLET.id])
      })

      it("lists the platform's own accounts, one per supported currency", async () => {
        const body = await (await api.request(`${base}/platform/internal-accounts`)).json()
        expect(
          body.data.map((account: { balance: { currency: { code: string } } }) => account.balance.currency.code).sort()
        ).toEqual(["USD", "USDC"])
        expect(body.data.every((account: { customerId?: string }) => account.customerId === undefined)).toBe(true)
        expect(body).not.toHaveProperty("hasMore")
      })

      it("funds an account in the sandbox, replays an Idempotency-Key without paying twice, and rejects bad amounts", async () => {
        const customer = await newCustomer()
        const [account] = (
          await (await api.request(`${base}/internal-accounts?customerId=${customer.id}&currency=USD`)).json()
        ).data
        const fund = (amount: unknown, key?: string) =>
          api.request(`${base}/sandbox/internal-accounts/${account.id}/fund`, {
            ...json({ amount }),
            ...(key ? { headers: { "idempotency-key": key } } : {})
          })
        expect((await (await fund(1_000)).json()).balance.amount).toBe(1_000)
        expect((await (await fund(500, "deposit-1")).json()).balance.amount).toBe(1_500)
        const replay = await fund(500, "deposit-1")
        expect(replay.status).toBe(200)
        expect((await replay.json()).balance.amount).toBe(1_500)
        const reused = await fund(700, "deposit-1")
        expect(reused.status).toBe(409)
        for (const amount of [0, -5, 1.5, 100_000_000_001, "10", null]) {
          const response = await fund(amount)
          expect(response.status).toBe(400)
          expect((await response.json()).details.errors).toEqual([expect.objectContaining({ field: "amount" })])
        }
        const read = await (await api.request(`${base}/internal-accounts/${account.id}`)).json()
        expect(read).toMatchObject({ balance: { amount: 1_500 }, totalBalance: { amount: 1_500 } })
      })

      it("funds an account in a currency the platform took on after it was set up (PATCH /config)", async () => {
        const other = await harness()
        try {
          const currencies = (await (await other.request(`${base}/config`)).json())
            .supportedCurrencies as ReadonlyArray<{
            currencyCode: string
            minAmount: number
            maxAmount: number
          }>
          const patched = await other.request(`${base}/config`, {
            method: "PATCH",
            body: JSON.stringify({
              supportedCurrencies: [
                ...currencies.map(({ currencyCode, maxAmount, minAmount }) => ({ currencyCode, minAmount, maxAmount })),
                { currencyCode: "EUR", minAmount: 1, maxAmount: 1_000_000 }
              ]
            })
          })
          expect(patched.status).toBe(200)
          const customer = await newCustomer(other)
          const [account] = (
            await (await other.request(`${base}/internal-accounts?customerId=${customer.id}&currency=EUR`)).json()
          ).data
          expect(account).toMatchObject({ balance: { amount: 0, currency: { code: "EUR" } } })
          const fund = () =>
            other.request(`${base}/sandbox/internal-accounts/${account.id}/fund`, json({ amount: 2_500 }))
          const first = await fund()
          expect(first.status).toBe(200)
          expect((await first.json()).balance.amount).toBe(2_500)
          expect((await (await fund()).json()).balance.amount).toBe(5_000)
        } finally {
          await other.dispose()
        }
      })

      it("refuses a funding that would take the balance past 2^53-1 with 409 and its own code, applying nothing", async () => {
        const customer = await newCustomer()
        const [account] = (
          await (await api.request(`${base}/internal-accounts?customerId=${customer.id}&currency=USD`)).json()
        ).data
        const max = Number.MAX_SAFE_INTEGER
        // Near the limit through the ledger: fundings of at most 10^11 would take some 90,000 requests.
        await api.run(
          Effect.flatMap(Ledger.Ledger, (ledger) =>
            ledger.post({
              platformId: api.platform.id,
              idempotencyKey: `near-the-limit-${account.id}`,
              status: "posted",
              description: "Near the balance limit",
              entries: [
                {
                  accountId: SystemAccounts.accountId(api.platform.id, "RAIL_CLEARING", "USD"),
                  currency: "USD",
                  amountMinor: -BigInt(max - 10)
                },
                { accountId: account.id, currency: "USD", amountMinor: BigInt(max - 10) }
              ]
            })
          )
        )
        const fund = (amount: number) =>
          api.request(`${base}/sandbox/internal-accounts/${account.id}/fund`, json({ amount }))
        const refused = await fund(100)
        expect(refused.status).toBe(409)
        expect(await refused.json()).toEqual({
          status: 409,
          code: "CONFLICT",
          message: "The account's balance would exceed 9007199254740991 minor units",
          reason: "The account's balance would exceed 9007199254740991 minor units",
          details: { rule: "balance_limit_exceeded" }
        })
        const read = await (await api.request(`${base}/internal-accounts/${account.id}`)).json()
        expect(read).toMatchObject({ balance: { amount: max - 10 }, totalBalance: { amount: max - 10 } })
        const toTheLimit = await fund(10)
        expect(toTheLimit.status).toBe(200)
        expect(await toTheLimit.json()).toMatchObject({ balance: { amount: max }, totalBalance: { amount: max } })
        expect((await fund(1)).status).toBe(409)
      })

      it("funds only the caller's platform's accounts, and only on sandbox platforms", async () => {
        const customer = await newCustomer()
        const [account] = (await (await api.request(`${base}/internal-accounts?customerId=${customer.id}`)).json()).data
        const foreign = await api.request(`${base}/sandbox/internal-accounts/${account.id}/fund`, {
          ...json({ amount: 10 }),
          auth: api.otherPlatformBasic
        })
        expect(foreign.status).toBe(404)
        const production = await harness({ environment: "PRODUCTION" })
        try {
          const theirs = await newCustomer(production)
          const [productionAccount] = (
            await (await production.request(`${base}/internal-accounts?customerId=${theirs.id}`)).json()
          ).data
          const denied = await production.request(
            `${base}/sandbox/internal-accounts/${productionAccount.id}/fund`,
            json({ amount: 10 })
          )
          expect(denied.status).toBe(403)
          expect(await denied.json()).toMatchObject({ code: "FORBIDDEN" })
        } finally {
          await production.dispose()
        }
      })
    })

    describe("external accounts", () => {
      it("creates a USD account with the sandbox name check, lists, reads and deletes it", async () => {
        const customer = await newCustomer()
        const created = await api.request(
          `${base}/customers/external-accounts`,
          json({
            customerId: customer.id,
            currency: "USD",
            platformAccountId: "ext-1",
            accountInfo: usdAccount("123456789")
          })
        )
        expect(created.status).toBe(201)
        const account = await created.json()
        expect(account).toMatchObject({
          customerId: customer.id,
          status: "ACTIVE",
          currency: "USD",
          defaultUmaDepositAccount: false,
          beneficiaryVerificationStatus: "MATCHED",
          beneficiaryVerifiedData: { fullName: "Kim Lee" },
          accountInfo: { accountType: "USD_ACCOUNT", routingNumber: "021000021" }
        })
        expect(account.id).toMatch(/^ExternalAccount:/)
        const duplicate = await api.request(
          `${base}/customers/external-accounts`,
          json({ customerId: customer.id, currency: "USD", accountInfo: usdAccount("123456789") })
        )
        expect(duplicate.status).toBe(409)
        const listed = await (await api.request(`${base}/customers/external-accounts?customerId=${customer.id}`)).json()
        expect(listed).toMatchObject({ totalCount: 1, hasMore: false, data: [{ id: account.id }] })
        expect((await api.request(`${base}/platform/external-accounts/${account.id}`)).status).toBe(404)
        expect(
          (await api.request(`${base}/customers/external-accounts/${account.id}`, { method: "DELETE" })).status
        ).toBe(204)
        expect((await api.request(`${base}/customers/external-accounts/${account.id}`)).status).toBe(404)
      })

      it.each([
        ["102", "NOT_MATCHED"],
        ["103", "PARTIAL_MATCH"],
        ["104", "PENDING"],
        ["106", "UNSUPPORTED"],
        ["107", "CHECKED_BY_RECEIVING_FI"]
      ])("reports the name check of an account number ending in %s as %s", async (suffix, status) => {
        const customer = await newCustomer()
        const response = await api.request(
          `${base}/customers/external-accounts`,
          json({ customerId: customer.id, currency: "USD", accountInfo: usdAccount(`555000${suffix}`) })
        )
        expect(response.status).toBe(201)
        expect((await response.json()).beneficiaryVerificationStatus).toBe(status)
      })

      it("refuses an account number ending in 105 with 400 INVALID_BANK_ACCOUNT and stores nothing", async () => {
        const customer = await newCustomer()
        const response = await api.request(
          `${base}/customers/external-accounts`,
          json({ customerId: customer.id, currency: "USD", accountInfo: usdAccount("555000105") })
        )
        expect(response.status).toBe(400)
        expect(await response.json()).toMatchObject({ code: "INVALID_BANK_ACCOUNT" })
        expect(
          (await (await api.request(`${base}/customers/external-accounts?customerId=${customer.id}`)).json()).totalCount
        ).toBe(0)
      })

      it("lists every invalid field of a bad account, and a currency the account type does not carry", async () => {
        const customer = await newCustomer()
        const bad = await api.request(
          `${base}/customers/external-accounts`,
          json({
            customerId: customer.id,
            currency: "USD",
            accountInfo: {
              ...usdAccount("12"),
              routingNumber: "021000022",
              beneficiary: { beneficiaryType: "INDIVIDUAL" }
            }
          })
        )
        expect(bad.status).toBe(400)
        const fields = (await bad.json()).details.errors.map((error: { field: string }) => error.field)
        expect(fields).toEqual(
          expect.arrayContaining([
            "accountInfo.accountNumber",
            "accountInfo.routingNumber",
            "accountInfo.beneficiary.fullName"
          ])
        )
        const currency = await api.request(
          `${base}/customers/external-accounts`,
          json({ customerId: customer.id, currency: "EUR", accountInfo: usdAccount("123456789") })
        )
        expect((await currency.json()).details.errors).toEqual([
          expect.objectContaining({ field: "currency", constraint: { enum: ["USD"] } })
        ])
        const unknownCustomer = await api.request(
          `${base}/customers/external-accounts`,
          json({
            customerId: "Customer:00000000-0000-4000-8000-000000000000",
            currency: "USD",
            accountInfo: usdAccount("123456789")
          })
        )
        expect(unknownCustomer.status).toBe(404)
      })

      it("keeps one default UMA deposit account per customer when two are set at once", async () => {
        const customer = await newCustomer()
        const responses = await Promise.all(
          ["111222333", "444555666", "777888999"].map((number) =>
            api.request(
              `${base}/customers/external-accounts`,
              json({
                customerId: customer.id,
                currency: "USD",
                defaultUmaDepositAccount: true,
                accountInfo: usdAccount(number)
              })
            )
          )
        )
        expect(responses.map((response) => response.status)).toEqual([201, 201, 201])
        const listed = await (await api.request(`${base}/customers/external-accounts?customerId=${customer.id}`)).json()
        expect(
          listed.data.filter((account: { defaultUmaDepositAccount: boolean }) => account.defaultUmaDepositAccount)
        ).toHaveLength(1)
      })

      it("creates and pages the platform's own accounts", async () => {
        for (const number of ["900000001", "900000002", "900000003"]) {
          const response = await api.request(
            `${base}/platform/external-accounts`,
            json({ currency: "USD", accountInfo: usdAccount(number) })
          )
          expect(response.status).toBe(201)
          expect(await response.json()).not.toHaveProperty("customerId")
        }
        const first = await (await api.request(`${base}/platform/external-accounts?limit=2`)).json()
        expect(first).toMatchObject({ hasMore: true, totalCount: 3 })
        const second = await (
          await api.request(`${base}/platform/external-accounts?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)
        ).json()
        expect(second).toMatchObject({ hasMore: false, totalCount: 3 })
        expect(second.data).toHaveLength(1)
      })
    })

    describe("wallet ownership on a platform subject to counterparty rules", () => {
      it("walks PENDING_OWNERSHIP_VERIFICATION → UNVERIFIED → ACTIVE through challenges", async () => {
        const config = new Platform.PlatformConfig({ ...Platforms.defaultConfig, subjectToCounterpartyRules: true })
        const ruled = await harness({ config })
        try {
          const customer = await newCustomer(ruled)
          const wallet = { accountType: "BASE_WALLET", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }
          const missing = await ruled.request(
            `${base}/customers/external-accounts`,
            json({ customerId: customer.id, currency: "USDC", accountInfo: wallet })
          )
          expect((await missing.json()).details.errors).toEqual([expect.objectContaining({ field: "ownershipType" })])
          const created = await (
            await ruled.request(
              `${base}/customers/external-accounts`,
              json({ customerId: customer.id, currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: wallet })
            )
          ).json()
          expect(created.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
          const path = `${base}/customers/external-accounts/${created.id}`
          expect((await ruled.request(`${path}/verify`, json({ signature: "0xabc" }))).status).toBe(409)
          const challenge = await ruled.request(`${path}/challenge`, json({ method: "WALLET_SIGNATURE" }))
          expect(challenge.status).toBe(201)
          expect(await challenge.json()).toMatchObject({
            method: "WALLET_SIGNATURE",
            messageToSign: expect.stringContaining(created.id)
          })
          expect(await (await ruled.request(`${path}/verify`, json({ signature: "0xsig002" }))).json()).toMatchObject({
            status: "UNVERIFIED"
          })
          expect((await ruled.request(`${path}/verify`, json({ signature: "0xsig" }))).status).toBe(409)
          await ruled.request(`${path}/challenge`, json({ method: "WALLET_SIGNATURE" }))
          expect(await (await ruled.request(`${path}/verify`, json({ signature: "0xsig" }))).json()).toMatchObject({
            status: "ACTIVE"
          })
          expect((await ruled.request(`${path}/challenge`, json({ method: "WALLET_SIGNATURE" }))).status).toBe(409)
        } finally {
          await ruled.dispose()
        }
      })
    })

    describe("every account type", () => {
      it("creates a valid account of each of the spec's account types and refuses a broken one with field errors", async () => {
        const customer = await newCustomer()
        for (const accountType of ExternalAccountInfo.AccountType.literals) {
          const accountInfo = AccountInfoExamples.exampleOf(accountType)
          const allowed = AccountTypeCurrency.accountTypeCurrency[accountType]
          const currency = allowed === "ANY_FIAT" ? "EUR" : allowed[0]
          const created = await api.request(
            `${base}/customers/external-accounts`,
            json({ customerId: customer.id, currency, accountInfo })
          )
          expect([accountType, created.status]).toEqual([accountType, 201])
          expect((await created.json()).accountInfo.accountType).toBe(accountType)
          const broken = Object.fromEntries(
            Object.entries(accountInfo).map(([key, value]) => [
              key,
              key === "accountType" || typeof value !== "string" ? value : "!!"
            ])
          )
          const refused = await api.request(
            `${base}/customers/external-accounts`,
            json({ customerId: customer.id, currency, accountInfo: broken })
          )
          expect([accountType, refused.status]).toEqual([accountType, 400])
          const errors = (await refused.json()).details.errors as ReadonlyArray<{ readonly field: string }>
          expect(errors.length).toBeGreaterThan(0)
          expect(errors.every((error) => error.field.startsWith("accountInfo"))).toBe(true)
        }
      })
    })

    describe("payment rails of fiat accounts", () => {
      const currencyOf = (accountType: ExternalAccountInfo.AccountType) => {
        const allowed = AccountTypeCurrency.accountTypeCurrency[accountType]
        return allowed === "ANY_FIAT" ? "EUR" : allowed[0]
      }

      it("answers every rail of the type when none is sent, keeps a subset as sent, and has none on wallets", async () => {
        const everyRail = await newCustomer()
        const subset = await newCustomer()
        for (const accountType of ExternalAccountInfo.AccountType.literals) {
          const accountInfo = AccountInfoExamples.exampleOf(accountType)
          const currency = currencyOf(accountType)
          const created = await api.request(
            `${base}/customers/external-accounts`,
            json({ customerId: everyRail.id, currency, accountInfo })
          )
          expect([accountType, created.status]).toEqual([accountType, 201])
          const body = await created.json()
          if (!PaymentRails.isFiatAccountType(accountType)) {
            expect([accountType, "paymentRails" in body.accountInfo]).toEqual([accountType, false])
            continue
          }
          expect([accountType, body.accountInfo.paymentRails]).toEqual([accountType, PaymentRails.railsOf(accountType)])
          const chosen = PaymentRails.railsOf(accountType).slice(-1)
          const kept = await api.request(
            `${base}/customers/external-accounts`,
            json({ customerId: subset.id, currency, accountInfo: { ...accountInfo, paymentRails: chosen } })
          )
          expect([accountType, kept.status]).toEqual([accountType, 201])
          const read = await (await api.request(`${base}/customers/external-accounts/${(await kept.json()).id}`)).json()
          expect([accountType, read.accountInfo.paymentRails]).toEqual([accountType, chosen])
        }
      })

      it("documents paymentRails in /openapi.json with the rails of each fiat type, and none on wallets", async () => {
        const document = await (await api.request("/openapi.json", { auth: null })).json()
        type Component = { readonly properties?: Record<string, { readonly enum?: ReadonlyArray<string> }> }
        const components = Object.values(document.components.schemas as Record<string, Component>)
        for (const accountType of ExternalAccountInfo.AccountType.literals) {
          const shapes = components.filter((schema) => schema.properties?.accountType?.enum?.[0] === accountType)
          expect([accountType, shapes.length]).toEqual([accountType, 1])
          const rails = shapes[0]?.properties?.["paymentRails"]
          expect([accountType, rails]).toEqual([
            accountType,
            PaymentRails.isFiatAccountType(accountType)
              ? expect.objectContaining({
                  type: "array",
                  minItems: 1,
                  uniqueItems: true,
                  items: { type: "string", enum: PaymentRails.railsOf(accountType) }
                })
              : undefined
          ])
        }
      })

      it("refuses a rail of another type with 400 INVALID_INPUT naming the rail's index, and stores nothing", async () => {
        const customer = await newCustomer()
        const refused = await api.request(
          `${base}/customers/external-accounts`,
          json({
            customerId: customer.id,
            currency: "GBP",
            accountInfo: { ...AccountInfoExamples.exampleOf("GBP_ACCOUNT"), paymentRails: ["FASTER_PAYMENTS", "ACH"] }
          })
        )
        expect(refused.status).toBe(400)
        expect(await refused.json()).toMatchObject({
          code: "INVALID_INPUT",
          details: {
            errors: [
              {
                field: "accountInfo.paymentRails.1",
                constraint: { enum: ["FASTER_PAYMENTS"] },
                message: "must be one of FASTER_PAYMENTS"
              }
            ]
          }
        })
        const repeated = await api.request(
          `${base}/platform/external-accounts`,
          json({ currency: "USD", accountInfo: { ...usdAccount("246813579"), paymentRails: ["ACH", "ACH"] } })
        )
        expect(repeated.status).toBe(400)
        expect((await repeated.json()).details.errors).toEqual([
          expect.objectContaining({ field: "accountInfo.paymentRails" })
        ])
        expect(
          (await (await api.request(`${base}/customers/external-accounts?customerId=${customer.id}`)).json()).totalCount
        ).toBe(0)
      })
    })
  })
}
