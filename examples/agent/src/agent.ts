/**
 * The agent: redeems its device code for an access token (no credentials needed), then acts with
 * `Authorization: Bearer <token>` for its customer only. It pays a small amount, which its policy lets it execute at
 * once, and a larger one, which waits for the platform's approval (`npm run platform`).
 */
import { randomUUID } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { type AgentAction, call, listAll, money, type Quote, runMain, setting } from "./Api.js"

interface Agent {
  readonly id: string
  readonly name: string
  readonly customerId: string
  readonly policy: { readonly defaultExecutionMode: string }
  readonly usage: { readonly dailySpend: number; readonly dailyTransactionCount: number }
}

interface Account {
  readonly id: string
  readonly type?: string
  readonly currency?: string
  readonly balance?: { readonly currency: { readonly code: string } }
}

/**
 * The access token: read from `PAYRAIL_AGENT_TOKEN_FILE` when an earlier run kept it there, otherwise redeemed from
 * `PAYRAIL_DEVICE_CODE` (and kept in that file, readable by its owner only, when it is set). The token is shown once,
 * by the redemption; it is never printed.
 */
const accessToken = async (): Promise<string> => {
  const file = process.env["PAYRAIL_AGENT_TOKEN_FILE"]
  if (file !== undefined && file !== "" && existsSync(file)) return readFileSync(file, "utf8").trim()
  const code = setting("PAYRAIL_DEVICE_CODE")
  const redeemed = await call<{ readonly agentName: string; readonly accessToken: string }>(
    undefined,
    "POST",
    `/agents/device-codes/${encodeURIComponent(code)}/redeem`
  )
  if (file !== undefined && file !== "") writeFileSync(file, redeemed.accessToken, { mode: 0o600 })
  console.log(`Redeemed the device code: installed as "${redeemed.agentName}"`)
  return redeemed.accessToken
}

// Quotes `amount` (smallest unit of the source's currency) from `source` to `destination` and submits its execution.
const pay = async (auth: string, source: string, destination: string, amount: number) => {
  const quote = await call<Quote>(auth, "POST", "/agents/me/quotes", {
    body: {
      source: { sourceType: "ACCOUNT", accountId: source },
      destination: { destinationType: "ACCOUNT", accountId: destination },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: amount
    },
    idempotencyKey: randomUUID()
  })
  const action = await call<AgentAction>(auth, "POST", `/agents/me/quotes/${quote.id}/execute`, {
    idempotencyKey: randomUUID()
  })
  const what = `Quote ${quote.id} for ${money(quote.totalSendingAmount, quote.sendingCurrency)}`
  if (action.status === "APPROVED") {
    console.log(`${what}: executed at once (action ${action.id}, transaction ${action.transaction?.id ?? "?"})`)
  } else if (action.status === "PENDING_APPROVAL") {
    console.log(`${what}: waiting for approval (action ${action.id}, until ${action.expiresAt})`)
  } else {
    console.log(
      `${what}: ${action.status} (action ${action.id}${action.failureReason ? `, ${action.failureReason}` : ""})`
    )
  }
  return action
}

runMain(async () => {
  const auth = `Bearer ${await accessToken()}`
  const me = await call<Agent>(auth, "GET", "/agents/me")
  console.log(
    `Acting as ${me.name} (${me.id}) for ${me.customerId}, ${me.policy.defaultExecutionMode}; ` +
      `today ${me.usage.dailyTransactionCount} payments`
  )
  const internal = await listAll<Account>(auth, "/agents/me/internal-accounts?currency=USD")
  const source = internal.find((account) => account.type !== "EMBEDDED_WALLET")
  const destination =
    process.env["PAYRAIL_DESTINATION_ACCOUNT_ID"] ??
    (await listAll<Account>(auth, "/agents/me/external-accounts?currency=USD"))[0]?.id
  if (source === undefined || destination === undefined) throw new Error("no USD account to pay from or to")

  await pay(auth, source.id, destination, Number(process.env["SMALL_AMOUNT"] ?? 2_500))
  await pay(auth, source.id, destination, Number(process.env["LARGE_AMOUNT"] ?? 45_000))
})
