import { describe, layer } from "@effect/vitest"
import type { Layer } from "effect"
import type { Storage } from "@payrail/core"
import * as AgentActionRepoSuite from "./agents/AgentActionRepoSuite.js"
import * as AgentRepoSuite from "./agents/AgentRepoSuite.js"
import * as AgentUsageRepoSuite from "./agents/AgentUsageRepoSuite.js"
import * as CardRepoSuite from "./cards/CardRepoSuite.js"
import * as CardRevealRepoSuite from "./cards/CardRevealRepoSuite.js"
import * as CardTransactionRepoSuite from "./cards/CardTransactionRepoSuite.js"
import * as InvitationRepoSuite from "./invitations/InvitationRepoSuite.js"
import * as StablecoinRepoSuite from "./stablecoins/StablecoinRepoSuite.js"
import * as ExternalAccountSuite from "./accounts/ExternalAccountSuite.js"
import * as InternalAccountSuite from "./accounts/InternalAccountSuite.js"
import * as CustomerSuite from "./customers/CustomerSuite.js"
import * as BulkImportSuite from "./customers/BulkImportSuite.js"
import * as JobsSuite from "./events/JobsSuite.js"
import * as JobWorkerSuite from "./events/JobWorkerSuite.js"
import * as SandboxClockSuite from "./events/SandboxClockSuite.js"
import * as WebhookDeliverySuite from "./events/WebhookDeliverySuite.js"
import * as IdempotencySuite from "./kernel/IdempotencySuite.js"
import * as RateLimiterSuite from "./kernel/RateLimiterSuite.js"
import * as UnitOfWorkSuite from "./kernel/UnitOfWorkSuite.js"
import * as LedgerSuite from "./ledger/LedgerSuite.js"
import * as QuoteSuite from "./payments/QuoteSuite.js"
import * as TransactionSuite from "./payments/TransactionSuite.js"
import * as UmaLookupSuite from "./payments/UmaLookupSuite.js"
import * as PlatformSuite from "./platforms/PlatformSuite.js"
import * as BeneficialOwnerSuite from "./verification/BeneficialOwnerSuite.js"
import * as DocumentSuite from "./verification/DocumentSuite.js"
import * as AuthMethodSuite from "./wallets/AuthMethodSuite.js"
import * as AuthSessionSuite from "./wallets/AuthSessionSuite.js"
import * as OtpChallengeSuite from "./wallets/OtpChallengeSuite.js"
import * as SignedRequestSuite from "./wallets/SignedRequestSuite.js"
import * as VerificationSuite from "./verification/VerificationSuite.js"
import * as WalletSecretSuite from "./wallets/WalletSecretSuite.js"
import * as ContactCodeSuite from "./verification/ContactCodeSuite.js"
import * as ScaRepoSuite from "./sca/ScaRepoSuite.js"
import * as DocumentStoreSuite from "./verification/DocumentStoreSuite.js"
import * as KycLinkSuite from "./verification/KycLinkSuite.js"
import * as IncomingDecisionSuite from "./payments/IncomingDecisionSuite.js"
import * as DelegatedKeySuite from "./wallets/DelegatedKeySuite.js"

/**
 * Registers every conformance suite against one adapter's storage layer. An adapter's test file calls only this;
 * the layer is built once per suite and the tests scope their data to fresh platforms, so they share it safely.
 */
export const run = (adapterName: string, storage: Layer.Layer<Storage.Services, unknown>): void => {
  describe(`storage conformance: ${adapterName}`, () => {
    const suites = {
      platforms: PlatformSuite,
      customers: CustomerSuite,
      "unit of work": UnitOfWorkSuite,
      ledger: LedgerSuite,
      "internal accounts": InternalAccountSuite,
      "external accounts": ExternalAccountSuite,
      "rate limiter": RateLimiterSuite,
      jobs: JobsSuite,
      "job worker": JobWorkerSuite,
      webhooks: WebhookDeliverySuite,
      "sandbox clocks": SandboxClockSuite,
      "idempotency keys": IdempotencySuite,
      quotes: QuoteSuite,
      transactions: TransactionSuite,
      "uma lookups": UmaLookupSuite,
      "auth methods": AuthMethodSuite,
      "auth sessions": AuthSessionSuite,
      "signed requests": SignedRequestSuite,
      "otp challenges": OtpChallengeSuite,
      "wallet secrets": WalletSecretSuite,
      "contact codes": ContactCodeSuite,
      documents: DocumentSuite,
      "beneficial owners": BeneficialOwnerSuite,
      "document files": DocumentStoreSuite,
      verifications: VerificationSuite,
      "kyc links": KycLinkSuite,
      agents: AgentRepoSuite,
      "agent usage": AgentUsageRepoSuite,
      "agent actions": AgentActionRepoSuite,
      cards: CardRepoSuite,
      "card transactions": CardTransactionRepoSuite,
      "card reveals": CardRevealRepoSuite,
      invitations: InvitationRepoSuite,
      stablecoins: StablecoinRepoSuite,
      "incoming decisions": IncomingDecisionSuite,
      "bulk imports": BulkImportSuite,
      "delegated keys": DelegatedKeySuite,
      sca: ScaRepoSuite
    }
    for (const [name, suite] of Object.entries(suites)) {
      layer(storage, { timeout: "120 seconds", excludeTestServices: true })(name, (it) => suite.register(it))
    }
  })
}
