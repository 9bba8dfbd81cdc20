import * as HttpApi from "@effect/platform/HttpApi"
import type { ApiToken } from "@payrail/core"
import { PayrailApi } from "@payrail/api"

type Permission = ApiToken.Permission

/**
 * The permission each authenticated endpoint requires, by group and endpoint name. Authentication checks it before
 * anything of the request is decoded, so a token without it gets 403 whatever its path, query or body hold, and its
 * body is never read. The handlers check the same permission again.
 */
const table: Readonly<Record<string, Readonly<Record<string, Permission>>>> = {
  verifications: { submit: "MANAGE", list: "VIEW", get: "VIEW" },
  customers: { create: "MANAGE", list: "VIEW", get: "VIEW", update: "MANAGE", delete: "MANAGE" },
  contactVerification: { sendEmail: "MANAGE", confirmEmail: "MANAGE", sendPhone: "MANAGE", confirmPhone: "MANAGE" },
  internalAccounts: {
    list: "VIEW",
    listForCustomers: "VIEW",
    get: "VIEW",
    listForPlatform: "VIEW",
    fund: "TRANSACT"
  },
  externalAccounts: {
    createForCustomers: "MANAGE",
    listForCustomers: "VIEW",
    getForCustomers: "VIEW",
    deleteForCustomers: "MANAGE",
    challengeForCustomers: "MANAGE",
    verifyForCustomers: "MANAGE",
    createForPlatform: "MANAGE",
    listForPlatform: "VIEW",
    getForPlatform: "VIEW",
    deleteForPlatform: "MANAGE",
    challengeForPlatform: "MANAGE",
    verifyForPlatform: "MANAGE"
  },
  webhooks: {
    rotateSecret: "MANAGE",
    listDeliveries: "VIEW",
    getDelivery: "VIEW",
    redeliver: "MANAGE",
    sendTest: "MANAGE",
    eventFeed: "VIEW"
  },
  config: { get: "VIEW", update: "MANAGE" },
  tokens: { create: "MANAGE", list: "VIEW", get: "VIEW", delete: "MANAGE" },
  sandboxClock: { get: "VIEW", advance: "MANAGE" },
  quotes: { create: "TRANSACT", list: "VIEW", get: "VIEW", execute: "TRANSACT" },
  transactions: { list: "VIEW", get: "VIEW", confirm: "TRANSACT" },
  sandboxPayments: { send: "TRANSACT", receiveUma: "TRANSACT" },
  transfers: { transferOut: "TRANSACT", transferIn: "TRANSACT" },
  exchangeRates: { list: "VIEW" },
  receiver: { lookupUma: "VIEW", lookupExternalAccount: "VIEW" },
  documents: { upload: "MANAGE", list: "VIEW", get: "VIEW", replace: "MANAGE", delete: "MANAGE" },
  walletAuth: {
    createCredential: "MANAGE",
    listCredentials: "VIEW",
    challengeCredential: "MANAGE",
    verifyCredential: "MANAGE",
    revokeCredential: "MANAGE",
    listSessions: "VIEW",
    refreshSession: "MANAGE",
    revokeSession: "MANAGE",
    exportWallet: "MANAGE",
    updateWallet: "MANAGE"
  },
  beneficialOwners: { create: "MANAGE", list: "VIEW", get: "VIEW", update: "MANAGE" },
  kycLinks: { create: "MANAGE" },
  agents: {
    create: "MANAGE",
    list: "VIEW",
    get: "VIEW",
    update: "MANAGE",
    updatePolicy: "MANAGE",
    delete: "MANAGE",
    issueDeviceCode: "MANAGE",
    deviceCodeStatus: "VIEW"
  },
  agentApprovals: { list: "VIEW", approve: "TRANSACT", reject: "TRANSACT", approveTransaction: "TRANSACT" },
  cards: { create: "MANAGE", list: "VIEW", get: "VIEW", update: "MANAGE", reveal: "MANAGE" },
  incomingApprovals: { reject: "TRANSACT", cancel: "TRANSACT" },
  delegatedKeys: { create: "MANAGE", list: "VIEW", get: "VIEW", revoke: "MANAGE" },
  sandboxCards: {
    authorization: "TRANSACT",
    clearing: "TRANSACT",
    return: "TRANSACT",
    return_reversal: "TRANSACT",
    authorization_advice: "TRANSACT",
    balance_inquiry: "TRANSACT",
    credit_authorization: "TRANSACT",
    financial_authorization: "TRANSACT",
    financial_credit_authorization: "TRANSACT",
    credit_authorization_advice: "TRANSACT"
  },
  invitations: { create: "MANAGE", get: "VIEW", claim: "MANAGE", cancel: "MANAGE" },
  lookups: {
    discoveries: "VIEW",
    umaProviders: "VIEW",
    vasps: "VIEW",
    estimateWithdrawalFee: "VIEW",
    endUserTerms: "VIEW"
  },
  stablecoins: {
    linkProviderAccount: "MANAGE",
    listProviderAccounts: "VIEW",
    getProviderAccount: "VIEW",
    register: "MANAGE",
    list: "VIEW",
    get: "VIEW",
    mint: "TRANSACT",
    burn: "TRANSACT",
    listOperations: "VIEW",
    getOperation: "VIEW"
  },
  bulkImports: { uploadCsv: "MANAGE", getJob: "VIEW" },
  sca: {
    listFactors: "VIEW",
    enrollFactor: "MANAGE",
    confirmFactor: "MANAGE",
    deleteFactor: "MANAGE",
    startLogin: "MANAGE",
    completeLogin: "MANAGE",
    recordEvent: "MANAGE",
    startReset: "MANAGE",
    getReset: "VIEW",
    completeReset: "MANAGE"
  },
  beneficiaryTrust: { startTrust: "MANAGE", confirmTrust: "MANAGE", startUntrust: "MANAGE", confirmUntrust: "MANAGE" },
  quoteAuthorization: { authorize: "TRANSACT", resend: "TRANSACT" }
}

const byRoute = (() => {
  const routes = new Map<string, Permission>()
  HttpApi.reflect(PayrailApi.PayrailApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group }) => {
      const permission = table[group.identifier]?.[endpoint.name]
      if (permission !== undefined) routes.set(`${endpoint.method} ${endpoint.path}`, permission)
    }
  })
  return routes
})()

/** The permission the endpoint at `method` and route pattern `path` requires; undefined when it needs none. */
export const required = (method: string, path: string): Permission | undefined => byRoute.get(`${method} ${path}`)
