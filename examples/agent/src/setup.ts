/**
 * The platform's side of installing an agent (HTTP Basic, the platform's credentials): a customer with a funded
 * USD account and a payee's bank account, and an agent acting for the customer under a policy. Prints the device
 * code the person installing the agent gives it (`npm run agent`).
 */
import { randomUUID } from "node:crypto"
import { call, listAll, money, platformAuthorization, runMain } from "./Api.js"

interface InternalAccount {
  readonly id: string
  readonly type: string
  readonly balance: { readonly amount: number; readonly currency: { readonly code: string; readonly decimals: number } }
}

const usd = { code: "USD", decimals: 2 }

/** What the agent may do: quote and execute from the funded account, on its own up to the approval threshold. */
const policy = (accountId: string) => ({
  permissions: ["VIEW_TRANSACTIONS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS"],
  defaultExecutionMode: "AUTO",
  spendingLimits: {
    currency: "USD",
    perTransactionLimit: 100_000, // 1,000.00 USD
    dailyLimit: 200_000,
    dailyTransactionLimit: 10,
    monthlyLimit: 1_000_000
  },
  accountRestrictions: { allowedAccountIds: [accountId] },
  // Anything above 100.00 USD waits for the platform's approval, even in AUTO mode.
  approvalThresholds: { currency: "USD", amount: 10_000 }
})

runMain(async () => {
  const auth = platformAuthorization()
  const customer = await call<{ readonly id: string }>(auth, "POST", "/customers", {
    body: { customerType: "INDIVIDUAL", fullName: "Ada Lovelace", email: `ada+${randomUUID()}@example.com` }
  })
  const accounts = await listAll<InternalAccount>(auth, `/internal-accounts?customerId=${customer.id}`)
  const account = accounts.find((each) => each.type !== "EMBEDDED_WALLET" && each.balance.currency.code === "USD")
  if (account === undefined) throw new Error(`${customer.id} has no USD internal account`)
  const funding = 500_000
  await call(auth, "POST", `/sandbox/internal-accounts/${account.id}/fund`, {
    body: { amount: funding },
    idempotencyKey: randomUUID()
  })
  const payee = await call<{ readonly id: string }>(auth, "POST", "/customers/external-accounts", {
    body: {
      customerId: customer.id,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "123456789",
        routingNumber: "021000021",
        paymentRails: ["ACH"],
        beneficiary: {
          beneficiaryType: "INDIVIDUAL",
          fullName: "Grace Hopper",
          birthDate: "1990-01-15",
          nationality: "US"
        }
      }
    }
  })
  console.log(`Customer ${customer.id}: account ${account.id} funded with ${money(funding, usd)}`)
  console.log(`Payee's bank account ${payee.id}`)

  const created = await call<{
    readonly agent: { readonly id: string }
    readonly deviceCode: { readonly code: string }
  }>(auth, "POST", "/agents", {
    body: { name: "Expense assistant", customerId: customer.id, policy: policy(account.id) }
  })
  console.log(`Agent ${created.agent.id} created; approvals above ${money(10_000, usd)}`)
  console.log(`Device code: ${created.deviceCode.code}  (valid for one hour; give it to the agent)`)
})
