/** What a seed's path and body may read: ids seen so far, and the answers of earlier named seeds. */
export interface SeedContext {
  /** The `pick`-th id of that type seen so far (0, the first, by default). */
  readonly existing: (resourceType: string, pick?: number) => string | undefined
  /** The JSON answer of the earlier seed of that `name` (an empty object if it failed). */
  readonly answer: (name: string) => Readonly<Record<string, unknown>>
}

/**
 * A request sent before the fuzz; its path and body may use the ids and answers of earlier seeds. A seed with
 * `idempotencyKey` sends a fresh `Idempotency-Key` (the stablecoin operations require one).
 */
export interface Seed {
  /** Names the answer for later seeds (`SeedContext.answer`). */
  readonly name?: string
  readonly method: string
  readonly path: string | ((context: SeedContext) => string)
  /** `existing(type, pick)`: the `pick`-th id of that type seen so far (0, the first, by default). */
  readonly body?: (existing: SeedContext["existing"], context: SeedContext) => unknown
  readonly idempotencyKey?: boolean
}

const text = (value: unknown): string => (typeof value === "string" ? value : "")

/**
 * Requests sent before a fuzz run so that its "existing id" cases find resources: an individual customer (whose
 * internal accounts the sandbox opens), a business customer with a beneficial owner, and an external account of the
 * customer and of the platform, and an agent of the individual; an UMA invitation of the individual claimed by the
 * business, and a stablecoin (a provider account linked, a token registered) minted into a Spark wallet of the
 * platform and partly burned to its bank account, so that the fuzz meets a claimed invitation and completed
 * stablecoin operations. Every seed answers a 2xx (Fuzz.test.ts checks it). Ids in their answers join the pool the
 * cases draw from, as do ids in every 2xx of the run itself.
 */
export const seeds = (base = "/2025-10-13"): ReadonlyArray<Seed> => {
  const usdAccount = {
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: "12345678",
      routingNumber: "021000021",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Fuzz Seed" }
    }
  }
  return [
    {
      name: "individual",
      method: "POST",
      path: `${base}/customers`,
      body: () => ({ customerType: "INDIVIDUAL", fullName: "Fuzz Seed" })
    },
    {
      name: "business",
      method: "POST",
      path: `${base}/customers`,
      body: () => ({ customerType: "BUSINESS", businessInfo: { legalName: "Fuzz Seed Ltd" } })
    },
    {
      method: "POST",
      path: `${base}/beneficial-owners`,
      // The second customer seeded: the business.
      body: (existing) => ({
        customerId: existing("Customer", 1),
        roles: ["UBO"],
        ownershipPercentage: 100,
        personalInfo: {
          firstName: "Fuzz",
          lastName: "Seed",
          birthDate: "1980-01-01",
          nationality: "US",
          address: { line1: "1 Main St", postalCode: "94105", country: "US" },
          idType: "SSN",
          identifier: "123-45-6789"
        }
      })
    },
    {
      method: "POST",
      path: `${base}/agents`,
      body: (existing) => ({
        name: "Fuzz seed agent",
        customerId: existing("Customer"),
        policy: {
          permissions: ["VIEW_TRANSACTIONS"],
          defaultExecutionMode: "APPROVAL_REQUIRED",
          spendingLimits: { currency: "USD", perTransactionLimit: 10_000, dailyLimit: 50_000 }
        }
      })
    },
    { name: "platformBank", method: "POST", path: `${base}/platform/external-accounts`, body: () => usdAccount },
    {
      method: "POST",
      path: `${base}/customers/external-accounts`,
      body: (existing) => ({ ...usdAccount, customerId: existing("Customer") })
    },
    {
      name: "invitation",
      method: "POST",
      path: `${base}/invitations`,
      body: (_, { answer }) => ({ inviterUma: answer("individual")["umaAddress"], amountToSend: 1_000 })
    },
    {
      method: "POST",
      path: ({ answer }) => `${base}/invitations/${text(answer("invitation")["code"])}/claim`,
      body: (_, { answer }) => ({ inviteeUma: answer("business")["umaAddress"] })
    },
    {
      method: "POST",
      path: `${base}/stablecoin-provider-accounts`,
      idempotencyKey: true,
      body: () => ({ provider: "BRALE", apiClientId: "fuzz_client", apiClientSecret: "fuzz_secret" })
    },
    {
      name: "stablecoin",
      method: "POST",
      path: `${base}/stablecoins`,
      idempotencyKey: true,
      // A token once per platform: a fresh identifier, so seeding a running server again registers another.
      body: () => ({
        providerTokenIdentifier: "FUZZ",
        networkTokenIdentifier: `btkn1${globalThis.crypto.randomUUID().replaceAll("-", "")}`,
        network: "SPARK_MAINNET"
      })
    },
    {
      name: "sparkWallet",
      method: "POST",
      path: `${base}/platform/external-accounts`,
      body: () => ({
        currency: "BTC",
        accountInfo: {
          accountType: "SPARK_WALLET",
          address: "spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j"
        }
      })
    },
    {
      method: "POST",
      path: ({ answer }) => `${base}/stablecoins/${text(answer("stablecoin")["id"])}/mints`,
      idempotencyKey: true,
      body: (_, { answer }) => ({
        amount: "5000000",
        fundingSource: { type: "WIRE" },
        destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: answer("sparkWallet")["id"] }
      })
    },
    {
      method: "POST",
      path: ({ answer }) => `${base}/stablecoins/${text(answer("stablecoin")["id"])}/burns`,
      idempotencyKey: true,
      body: (_, { answer }) => ({
        amount: "1000000",
        source: { type: "PROVIDER_INTERNAL_BALANCE" },
        destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: answer("platformBank")["id"], rail: "WIRE" }
      })
    }
  ]
}
