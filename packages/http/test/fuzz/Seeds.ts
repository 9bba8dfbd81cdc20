/** A request sent before the fuzz; its body may use the id of a resource an earlier seed created. */
export interface Seed {
  readonly method: string
  readonly path: string
  readonly body?: (existing: (resourceType: string) => string | undefined) => unknown
}

/**
 * Requests sent before a fuzz run so that its "existing id" cases find resources: a customer (whose internal
 * accounts the sandbox opens) and an external account of the customer and of the platform. Ids in their answers
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
    { method: "POST", path: `${base}/platform/external-accounts`, body: () => usdAccount },
    {
      method: "POST",
      path: `${base}/customers/external-accounts`,
      body: (existing) => ({ ...usdAccount, customerId: existing("Customer") })
    }
  ]
}
