import { Schema } from "effect"
import {
  Agent,
  AgentAction,
  type AgentDeviceCode,
  AgentPolicy,
  Customer,
  InternalAccount,
  type Platform,
  Quote,
  Transaction
} from "@payrail/core"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

/** A fresh customer id (agents' tables hold no foreign keys to customers). */
export const customerId = (): Customer.CustomerId => Customer.CustomerId.make(`Customer:${uuid()}`)

/** A fresh internal account id. */
export const internalAccountId = (): InternalAccount.InternalAccountId =>
  InternalAccount.InternalAccountId.make(`InternalAccount:${uuid()}`)

/** A fresh quote id. */
export const quoteId = (): Quote.QuoteId => Quote.QuoteId.make(`Quote:${uuid()}`)

/** A fresh transaction id. */
export const transactionId = (): Transaction.TransactionId => Transaction.TransactionId.make(`Transaction:${uuid()}`)

/** 64 lowercase hex digits, fresh: a SHA-256 as the repositories store token and code hashes. */
export const hash = (): string => `${uuid()}${uuid()}`.replaceAll("-", "")

/**
 * A policy using every field: permissions, limits of every kind (one `null`), an account restriction with a rule and
 * an approval threshold, so that a stored agent round-trips all of them.
 */
export const fullPolicy = (): AgentPolicy.AgentPolicy => {
  const account = internalAccountId()
  return Schema.decodeUnknownSync(AgentPolicy.AgentPolicy)({
    permissions: ["VIEW_TRANSACTIONS", "CREATE_QUOTES", "EXECUTE_QUOTES"],
    defaultExecutionMode: "AUTO",
    spendingLimits: {
      currency: "USD",
      perTransactionLimit: 10_000,
      dailyLimit: 50_000,
      dailyTransactionLimit: 10,
      monthlyLimit: null
    },
    accountRestrictions: {
      allowedAccountIds: [account],
      accountRules: [{ accountId: account, executionMode: "APPROVAL_REQUIRED", perTransactionLimit: null }]
    },
    approvalThresholds: { currency: "USD", amount: 5_000 }
  })
}

/** The smallest policy: no optional field at all. */
export const barePolicy = (): AgentPolicy.AgentPolicy =>
  Schema.decodeUnknownSync(AgentPolicy.AgentPolicy)({
    permissions: [],
    defaultExecutionMode: "APPROVAL_REQUIRED",
    spendingLimits: { currency: "EUR", perTransactionLimit: 0 }
  })

/** A live, unconnected agent of the platform created (and updated) at `at(offsetMillis)`, at version 1. */
export const agent = (
  platformId: Platform.PlatformId,
  overrides: Partial<Agent.AgentRecord> & { readonly offsetMillis?: number } = {}
): Agent.AgentRecord => {
  const { offsetMillis = 0, ...rest } = overrides
  return {
    id: Agent.AgentId.make(`Agent:${uuid()}`),
    platformId,
    name: "Conformance agent",
    customerId: customerId(),
    isPaused: false,
    isConnected: false,
    policy: fullPolicy(),
    createdAt: Fixtures.at(offsetMillis),
    updatedAt: Fixtures.at(offsetMillis),
    tokenHash: undefined,
    version: 1,
    ...rest
  }
}

/** An open device code of the agent issued at `at(offsetMillis)`, valid for an hour. */
export const deviceCode = (agent: Agent.AgentRecord, offsetMillis = 0): AgentDeviceCode.StoredDeviceCode => ({
  codeHash: hash(),
  platformId: agent.platformId,
  agentId: agent.id,
  createdAt: Fixtures.at(offsetMillis),
  expiresAt: Fixtures.at(offsetMillis + 60 * 60 * 1000),
  redeemedAt: undefined,
  invalidatedAt: undefined
})

/** A pending quote execution of the agent created at `at(offsetMillis)`, its quote's transaction known. */
export const quoteAction = (
  agent: Agent.AgentRecord,
  overrides: Partial<AgentAction.StoredAgentAction> & { readonly offsetMillis?: number } = {}
): AgentAction.StoredAgentAction => {
  const { offsetMillis = 0, ...rest } = overrides
  return {
    id: AgentAction.AgentActionId.make(`AgentAction:${uuid()}`),
    platformId: agent.platformId,
    agentId: agent.id,
    customerId: agent.customerId,
    platformCustomerId: `pc-${agent.customerId}`,
    status: "PENDING_APPROVAL",
    type: "EXECUTE_QUOTE",
    quoteId: quoteId(),
    transferDetails: undefined,
    transactionId: transactionId(),
    executed: false,
    rejectionReason: undefined,
    failureReason: undefined,
    expiresAt: Fixtures.at(offsetMillis + 5 * 60 * 1000),
    createdAt: Fixtures.at(offsetMillis),
    updatedAt: Fixtures.at(offsetMillis),
    ...rest
  }
}

/** A transfer of 123.45 USD from a fresh internal account to a fresh external one, on `paymentRail` if given. */
export const transferDetails = (
  paymentRail?: string
): NonNullable<AgentAction.StoredAgentAction["transferDetails"]> => ({
  amount: 12_345,
  currency: Schema.decodeSync(AgentAction.AgentTransferDetails.fields.currency)("USD"),
  sourceAccountId: internalAccountId(),
  destinationAccountId: `ExternalAccount:${uuid()}`,
  ...(paymentRail === undefined ? {} : { paymentRail })
})

/** A pending transfer-out of the agent created at `at(offsetMillis)`, with its rail; no transaction yet. */
export const transferAction = (
  agent: Agent.AgentRecord,
  overrides: Partial<AgentAction.StoredAgentAction> & { readonly offsetMillis?: number } = {}
): AgentAction.StoredAgentAction =>
  quoteAction(agent, {
    type: "TRANSFER_OUT",
    quoteId: undefined,
    transactionId: undefined,
    transferDetails: transferDetails("ACH"),
    ...overrides
  })
