import { expect, it } from "vitest"
import { makeHarness } from "../support/Harness.js"
import { base, describeOverHttp } from "../support/OverHttp.js"

const patch = (body: unknown) => ({ method: "PATCH", body: JSON.stringify(body) })
const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) })

describeOverHttp("platform configuration over HTTP", {}, (api, adapter) => {
  it("answers the reference's PlatformConfig shape with the platform's id and defaults", async () => {
    const response = await api.request(`${base}/config`)
    expect(response.status).toBe(200)
    const config = await response.json()
    expect(config).toMatchObject({
      id: api.platform.id,
      umaDomain: "sandbox.payrail.local",
      isRegulatedFinancialInstitution: false,
      skipPaperwork: false,
      subjectToCounterpartyRules: false,
      feeConfigs: []
    })
    expect(config.supportedCurrencies[0]).toEqual({
      currencyCode: "USD",
      minAmount: 1,
      maxAmount: 100_000_000,
      requiredCounterpartyFields: [],
      enabledTransactionTypes: ["INCOMING", "OUTGOING"]
    })
    expect(config).not.toHaveProperty("region")
  })

  it("changes only the fields a PATCH names, merges nested ones, and a later GET sees it", async () => {
    const first = await api.request(
      `${base}/config`,
      patch({
        webhookEndpoint: "http://localhost:8080/hooks",
        embeddedWalletConfig: { appName: "Pay", otpLength: 8 },
        feeConfigs: [
          {
            feeType: "CROSS_CURRENCY_TRANSACTION",
            sourceCurrency: "USD",
            variableFeeBps: 25,
            fixedFee: { amount: 10, currency: "USD" }
          }
        ]
      })
    )
    expect(first.status).toBe(200)
    const second = await api.request(
      `${base}/config`,
      patch({ embeddedWalletConfig: { alphanumeric: true }, umaDomain: "pay.example.com" })
    )
    const config = await second.json()
    expect(config).toMatchObject({
      umaDomain: "pay.example.com",
      webhookEndpoint: "http://localhost:8080/hooks",
      embeddedWalletConfig: {
        appName: "Pay",
        otpLength: 8,
        alphanumeric: true,
        expirationSeconds: 300,
        sendFromEmailSenderName: "Notifications"
      },
      feeConfigs: [{ variableFeeBps: 25, fixedFee: { amount: 10, currency: "USD" } }]
    })
    expect(await (await api.request(`${base}/config`)).json()).toEqual(config)
    // Both fees zero deactivates the fee; null removes the endpoint.
    const cleared = await (
      await api.request(
        `${base}/config`,
        patch({
          webhookEndpoint: null,
          feeConfigs: [
            {
              feeType: "CROSS_CURRENCY_TRANSACTION",
              sourceCurrency: "USD",
              variableFeeBps: 0,
              fixedFee: { amount: 0, currency: "USD" }
            }
          ]
        })
      )
    ).json()
    expect(cleared.feeConfigs).toEqual([])
    expect(cleared).not.toHaveProperty("webhookEndpoint")
    expect(cleared.embeddedWalletConfig.appName).toBe("Pay")
  })

  it("names every invalid field with its dot path", async () => {
    const response = await api.request(
      `${base}/config`,
      patch({
        webhookEndpoint: "ftp://example.com/hooks",
        supportedCurrencies: [
          { currencyCode: "USD", minAmount: 500, maxAmount: 100 },
          { currencyCode: "XYZ", minAmount: 1, maxAmount: 2 }
        ],
        embeddedWalletConfig: { appName: "x".repeat(256), otpLength: 3, expirationSeconds: 86_401 },
        feeConfigs: [
          {
            feeType: "CROSS_CURRENCY_TRANSACTION",
            sourceCurrency: "USD",
            variableFeeBps: 10_001,
            fixedFee: { amount: 0, currency: "USD" }
          }
        ]
      })
    )
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe("INVALID_INPUT")
    const fields = body.details.errors.map((error: { field: string }) => error.field)
    expect(fields).toEqual(
      expect.arrayContaining([
        "webhookEndpoint",
        "supportedCurrencies.1.currencyCode",
        "embeddedWalletConfig.appName",
        "embeddedWalletConfig.otpLength",
        "embeddedWalletConfig.expirationSeconds",
        "feeConfigs.0.variableFeeBps"
      ])
    )
    const crossField = await api.request(
      `${base}/config`,
      patch({
        supportedCurrencies: [
          { currencyCode: "USD", minAmount: 500, maxAmount: 100 },
          { currencyCode: "USD", minAmount: 1, maxAmount: 2 }
        ]
      })
    )
    expect(crossField.status).toBe(400)
    expect((await crossField.json()).details.errors.map((error: { field: string }) => error.field)).toEqual([
      "supportedCurrencies.0.minAmount",
      "supportedCurrencies.1.currencyCode"
    ])
    const unchanged = await (await api.request(`${base}/config`)).json()
    expect(unchanged.supportedCurrencies.map((currency: { currencyCode: string }) => currency.currencyCode)).toEqual([
      "USD",
      "USDC"
    ])
  })

  it("needs MANAGE to change and VIEW to read", async () => {
    const viewer = await api.tokenWith(["VIEW"])
    expect((await api.request(`${base}/config`, { auth: viewer })).status).toBe(200)
    const refused = await api.request(`${base}/config`, { ...patch({ skipPaperwork: true }), auth: viewer })
    expect(refused.status).toBe(403)
    expect((await api.request(`${base}/config`, { auth: await api.tokenWith(["MANAGE"]) })).status).toBe(403)
  })

  it("applies 16 concurrent PATCHes of different fields: none is lost", async () => {
    const fee = {
      feeType: "CROSS_CURRENCY_TRANSACTION",
      sourceCurrency: "USD",
      variableFeeBps: 7,
      fixedFee: { amount: 3, currency: "USD" }
    }
    const currencies = [{ currencyCode: "EUR", minAmount: 5, maxAmount: 500 }]
    const changes: ReadonlyArray<Record<string, unknown>> = [
      { umaDomain: "concurrent.example.com" },
      { webhookEndpoint: "https://hooks.example.com/payrail" },
      { supportedCurrencies: currencies },
      { feeConfigs: [fee] },
      { isRegulatedFinancialInstitution: true },
      { skipPaperwork: true },
      { subjectToCounterpartyRules: true },
      { embeddedWalletConfig: { appName: "Concurrent" } },
      { embeddedWalletConfig: { otpLength: 9 } },
      { embeddedWalletConfig: { alphanumeric: true } },
      { embeddedWalletConfig: { expirationSeconds: 120 } },
      { embeddedWalletConfig: { sendFromEmailAddress: "from@example.com" } },
      { embeddedWalletConfig: { sendFromEmailSenderName: "Payrail" } },
      { embeddedWalletConfig: { replyToEmailAddress: "reply@example.com" } },
      { embeddedWalletConfig: { logoUrl: "https://example.com/logo.png" } },
      {}
    ]
    const fresh = await makeHarness({ storage: adapter.storage() })
    try {
      const responses = await Promise.all(changes.map((change) => fresh.request(`${base}/config`, patch(change))))
      expect(responses.map((response) => response.status)).toEqual(changes.map(() => 200))
      const final = await (await fresh.request(`${base}/config`)).json()
      expect(final).toMatchObject({
        umaDomain: "concurrent.example.com",
        webhookEndpoint: "https://hooks.example.com/payrail",
        supportedCurrencies: [
          { ...currencies[0], requiredCounterpartyFields: [], enabledTransactionTypes: ["INCOMING", "OUTGOING"] }
        ],
        feeConfigs: [fee],
        isRegulatedFinancialInstitution: true,
        skipPaperwork: true,
        subjectToCounterpartyRules: true,
        embeddedWalletConfig: {
          appName: "Concurrent",
          otpLength: 9,
          alphanumeric: true,
          expirationSeconds: 120,
          sendFromEmailAddress: "from@example.com",
          sendFromEmailSenderName: "Payrail",
          replyToEmailAddress: "reply@example.com",
          logoUrl: "https://example.com/logo.png"
        }
      })
      const updatedAts = await Promise.all(responses.map(async (response) => (await response.json()).updatedAt))
      expect(new Set(updatedAts).size).toBe(changes.length)
    } finally {
      await fresh.dispose()
    }
  })

  it("makes the wallet ownership challenge reachable once PATCH sets subjectToCounterpartyRules", async () => {
    const fresh = await makeHarness({ storage: adapter.storage() })
    try {
      const customer = await (
        await fresh.request(
          `${base}/customers`,
          post({ customerType: "INDIVIDUAL", fullName: "Kim Lee", email: "k@example.com" })
        )
      ).json()
      const wallet = { accountType: "BASE_WALLET", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }
      const before = await (
        await fresh.request(
          `${base}/customers/external-accounts`,
          post({ customerId: customer.id, currency: "USDC", accountInfo: wallet })
        )
      ).json()
      const unreachable = await fresh.request(
        `${base}/customers/external-accounts/${before.id}/challenge`,
        post({ method: "WALLET_SIGNATURE" })
      )
      expect(unreachable.status).toBe(409)

      expect((await fresh.request(`${base}/config`, patch({ subjectToCounterpartyRules: true }))).status).toBe(200)
      const created = await (
        await fresh.request(
          `${base}/customers/external-accounts`,
          post({
            customerId: customer.id,
            currency: "USDC",
            ownershipType: "FIRST_PARTY",
            accountInfo: { ...wallet, address: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" }
          })
        )
      ).json()
      expect(created.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
      const path = `${base}/customers/external-accounts/${created.id}`
      expect((await fresh.request(`${path}/challenge`, post({ method: "WALLET_SIGNATURE" }))).status).toBe(201)
      expect(await (await fresh.request(`${path}/verify`, post({ signature: "0xsig" }))).json()).toMatchObject({
        status: "ACTIVE"
      })
    } finally {
      await fresh.dispose()
    }
  })
})

describeOverHttp("production platform configuration", { environment: "PRODUCTION" }, (api) => {
  it("requires https webhooks and keeps the operator's flags read-only", async () => {
    const response = await api.request(
      `${base}/config`,
      patch({
        webhookEndpoint: "http://example.com/hooks",
        isRegulatedFinancialInstitution: true,
        skipPaperwork: true
      })
    )
    expect(response.status).toBe(400)
    expect((await response.json()).details.errors.map((error: { field: string }) => error.field)).toEqual([
      "webhookEndpoint",
      "isRegulatedFinancialInstitution",
      "skipPaperwork"
    ])
    const allowed = await api.request(
      `${base}/config`,
      patch({ webhookEndpoint: "https://example.com/hooks", skipPaperwork: false, subjectToCounterpartyRules: true })
    )
    expect(allowed.status).toBe(200)
    expect(await allowed.json()).toMatchObject({
      webhookEndpoint: "https://example.com/hooks",
      subjectToCounterpartyRules: true,
      skipPaperwork: false
    })
  })
})
