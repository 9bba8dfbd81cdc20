/** A request sent before the fuzz; its body may use the id of a resource an earlier seed created. */
export interface Seed {
  readonly method: string
  readonly path: string
  /** `existing(type, pick)`: the `pick`-th id of that type seen so far (0, the first, by default). */
  readonly body?: (existing: (resourceType: string, pick?: number) => string | undefined) => unknown
}

/**
 * Requests sent before a fuzz run so that its "existing id" cases find resources: an individual customer (whose
 * internal accounts the sandbox opens), a business customer with a beneficial owner, and an external account of the
 * customer and of the platform, and an agent of the individual. Ids in their answers
 * join the pool the cases draw from, as do ids in every 2xx of the run itself.
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
    { method: "POST", path: `${base}/customers`, body: () => ({ customerType: "INDIVIDUAL", fullName: "Fuzz Seed" }) },
    {
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
    { method: "POST", path: `${base}/platform/external-accounts`, body: () => usdAccount },
    {
      method: "POST",
      path: `${base}/customers/external-accounts`,
      body: (existing) => ({ ...usdAccount, customerId: existing("Customer") })
    }
  ]
}
