import { Effect } from "effect"
import type { ExternalAccountRepo, InternalAccountRepo } from "../accounts/index.js"
import type { TransferRequest } from "../payments/index.js"
import { type AgentCaller, requirePermission } from "./AgentCaller.js"
import * as AgentScope from "./AgentScope.js"
import { transferSubmission } from "./AgentSubmission.js"

/**
 * An agent's transfers, checked before their evaluation: `CREATE_TRANSFERS`, an `amount` (optional in the platform's
 * request, required of an agent: 400 naming `amount`), and both ends accounts of the agent's customer (another
 * customer's are 404). The internal end (the source of a transfer out, the destination of a transfer in) is the
 * account the policy's account rules apply to; the amount is in its currency.
 */

type Accounts = InternalAccountRepo.InternalAccountRepo | ExternalAccountRepo.ExternalAccountRepo

/** The submission of `POST /agents/me/transfer-out`: from an internal account to an external one, both the customer's. */
export const outOf = (caller: AgentCaller, request: TransferRequest.TransferOutRequest) =>
  Effect.gen(function* () {
    const { agent, platform } = caller
    yield* requirePermission(caller, "CREATE_TRANSFERS")
    if (request.amount === undefined) return yield* AgentScope.invalid("amount", "is required for an agent")
    if (!AgentScope.isInternal(request.source.accountId)) {
      return yield* AgentScope.invalid("source.accountId", "must be an internal account of the agent's customer")
    }
    if (AgentScope.isInternal(request.destination.accountId)) {
      return yield* AgentScope.invalid("destination.accountId", "must be an external account")
    }
    const source = yield* AgentScope.ownInternalAccount(platform, agent.customerId, request.source.accountId)
    yield* AgentScope.ownExternalAccount(platform, agent.customerId, request.destination.accountId)
    const details = {
      amount: request.amount,
      currency: source.currency,
      sourceAccountId: request.source.accountId,
      destinationAccountId: request.destination.accountId,
      ...(request.destination.paymentRail === undefined ? {} : { paymentRail: request.destination.paymentRail })
    }
    return transferSubmission(caller, "TRANSFER_OUT", details, source.id)
  })

/** The submission of `POST /agents/me/transfer-in`: from an external account into an internal one, both the customer's. */
export const inOf = (caller: AgentCaller, request: TransferRequest.TransferInRequest) =>
  Effect.gen(function* () {
    const { agent, platform } = caller
    yield* requirePermission(caller, "CREATE_TRANSFERS")
    if (request.amount === undefined) return yield* AgentScope.invalid("amount", "is required for an agent")
    if (AgentScope.isInternal(request.source.accountId)) {
      return yield* AgentScope.invalid("source.accountId", "must be an external account that can be pulled")
    }
    if (!AgentScope.isInternal(request.destination.accountId)) {
      return yield* AgentScope.invalid("destination.accountId", "must be an internal account of the agent's customer")
    }
    yield* AgentScope.ownExternalAccount(platform, agent.customerId, request.source.accountId)
    const destination = yield* AgentScope.ownInternalAccount(platform, agent.customerId, request.destination.accountId)
    const details = {
      amount: request.amount,
      currency: destination.currency,
      sourceAccountId: request.source.accountId,
      destinationAccountId: request.destination.accountId
    }
    return transferSubmission(caller, "TRANSFER_IN", details, destination.id)
  })

/** What checking a transfer reads. */
export type Requirements = Accounts
