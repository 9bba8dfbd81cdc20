/**
 * The platform's side of approvals (HTTP Basic): lists the agent actions waiting for approval
 * (`GET /agents/approvals`) and approves each (`POST /agents/{agentId}/actions/{actionId}/approve`). An approval
 * re-checks the agent's policy and usage as they are now: the action ends `APPROVED` with its transaction, or
 * `FAILED` with the reason.
 */
import { type AgentAction, call, listAll, money, platformAuthorization, runMain } from "./Api.js"

runMain(async () => {
  const auth = platformAuthorization()
  const agentId = process.env["PAYRAIL_AGENT_ID"]
  const waiting = (
    await listAll<AgentAction>(auth, `/agents/approvals${agentId === undefined ? "" : `?agentId=${agentId}`}`)
  ).filter((action) => action.status === "PENDING_APPROVAL")
  if (waiting.length === 0) console.log("Nothing waits for approval.")
  for (const action of waiting) {
    const amount =
      action.quote === undefined ? "" : ` for ${money(action.quote.totalSendingAmount, action.quote.sendingCurrency)}`
    const decided = await call<AgentAction>(auth, "POST", `/agents/${action.agentId}/actions/${action.id}/approve`)
    console.log(
      decided.status === "APPROVED"
        ? `Approved ${action.id}${amount}: transaction ${decided.transaction?.id ?? "?"}`
        : `Approved ${action.id}${amount}, but it ${decided.status}: ${decided.failureReason ?? "no reason given"}`
    )
  }
})
