import { Layer } from "effect"
import type { Storage } from "@payrail/core"
import * as MemoryAuthMethodRepo from "./accounts/MemoryAuthMethodRepo.js"
import * as MemoryExternalAccountRepo from "./accounts/MemoryExternalAccountRepo.js"
import * as MemoryInternalAccountRepo from "./accounts/MemoryInternalAccountRepo.js"
import * as MemoryCustomerRepo from "./customers/MemoryCustomerRepo.js"
import * as MemoryJobs from "./events/MemoryJobs.js"
import * as MemoryWebhookDeliveryRepo from "./events/MemoryWebhookDeliveryRepo.js"
import * as MemoryWebhookSecretRepo from "./events/MemoryWebhookSecretRepo.js"
import * as MemoryIdempotencyKeys from "./kernel/MemoryIdempotencyKeys.js"
import * as MemoryOutbox from "./kernel/MemoryOutbox.js"
import * as MemoryRateLimiter from "./kernel/MemoryRateLimiter.js"
import * as MemoryState from "./kernel/MemoryState.js"
import * as MemoryUnitOfWork from "./kernel/MemoryUnitOfWork.js"
import * as MemoryLedger from "./ledger/MemoryLedger.js"
import * as MemoryQuoteRepo from "./payments/MemoryQuoteRepo.js"
import * as MemoryTransactionRepo from "./payments/MemoryTransactionRepo.js"
import * as MemoryUmaLookupRepo from "./payments/MemoryUmaLookupRepo.js"
import * as MemoryApiTokenRepo from "./platforms/MemoryApiTokenRepo.js"
import * as MemoryCredentialChanges from "./platforms/MemoryCredentialChanges.js"
import * as MemoryPlatformRepo from "./platforms/MemoryPlatformRepo.js"
import * as MemoryBeneficialOwnerRepo from "./verification/MemoryBeneficialOwnerRepo.js"
import * as MemoryDocumentRepo from "./verification/MemoryDocumentRepo.js"
import * as MemoryAuthSessionRepo from "./wallets/MemoryAuthSessionRepo.js"
import * as MemoryOtpChallengeRepo from "./wallets/MemoryOtpChallengeRepo.js"
import * as MemorySignedRequestRepo from "./wallets/MemorySignedRequestRepo.js"
import * as MemoryWalletSecretRepo from "./wallets/MemoryWalletSecretRepo.js"
import * as MemoryContactCodeRepo from "./verification/MemoryContactCodeRepo.js"
import * as MemoryDocumentStore from "./verification/MemoryDocumentStore.js"
import * as MemoryVerificationRepo from "./verification/MemoryVerificationRepo.js"
import * as MemoryKycLinkRepo from "./verification/MemoryKycLinkRepo.js"
import * as MemoryAgentRepo from "./agents/MemoryAgentRepo.js"
import * as MemoryAgentUsageRepo from "./agents/MemoryAgentUsageRepo.js"
import * as MemoryAgentActionRepo from "./agents/MemoryAgentActionRepo.js"
import * as MemoryCardRepo from "./cards/MemoryCardRepo.js"
import * as MemoryCardRevealRepo from "./cards/MemoryCardRevealRepo.js"
import * as MemoryCardTransactionRepo from "./cards/MemoryCardTransactionRepo.js"
import * as MemoryInvitationRepo from "./invitations/MemoryInvitationRepo.js"
import * as MemoryScaRepo from "./sca/MemoryScaRepo.js"
import * as MemoryStablecoinRepo from "./stablecoins/MemoryStablecoinRepo.js"
import * as MemoryIncomingDecisionRepo from "./payments/MemoryIncomingDecisionRepo.js"
import * as MemoryBulkImportRepo from "./customers/MemoryBulkImportRepo.js"
import * as MemoryDelegatedKeyRepo from "./wallets/MemoryDelegatedKeyRepo.js"

/**
 * Every storage port in memory, sharing one state: for tests and throwaway demos. Each build of the layer is a
 * fresh, empty store; nothing survives the process.
 */
// The outbox and the ledger enqueue the delivery jobs of the events they record.
const withDeliveries = Layer.mergeAll(MemoryOutbox.layer, MemoryLedger.layer).pipe(
  Layer.provideMerge(Layer.merge(MemoryPlatformRepo.layer, MemoryJobs.layer))
)

export const layer: Layer.Layer<Storage.Services> = Layer.mergeAll(
  MemoryUnitOfWork.layer,
  // The transactions post through the ledger (`insertPosted`).
  MemoryTransactionRepo.layer.pipe(Layer.provideMerge(withDeliveries)),
  MemoryApiTokenRepo.layer,
  MemoryCustomerRepo.layer,
  MemoryInternalAccountRepo.layer,
  MemoryAuthMethodRepo.layer,
  MemoryExternalAccountRepo.layer,
  MemoryCredentialChanges.layer,
  MemoryRateLimiter.layer,
  MemoryWebhookSecretRepo.layer,
  MemoryWebhookDeliveryRepo.layer,
  MemoryIdempotencyKeys.layer,
  MemoryQuoteRepo.layer,
  MemoryUmaLookupRepo.layer,
  MemoryAuthSessionRepo.layer,
  MemorySignedRequestRepo.layer,
  MemoryOtpChallengeRepo.layer,
  MemoryWalletSecretRepo.layer,
  MemoryContactCodeRepo.layer,
  MemoryDocumentRepo.layer,
  MemoryBeneficialOwnerRepo.layer,
  MemoryDocumentStore.layer,
  MemoryVerificationRepo.layer,
  MemoryKycLinkRepo.layer,
  MemoryAgentRepo.layer,
  MemoryAgentUsageRepo.layer,
  MemoryAgentActionRepo.layer,
  MemoryCardRepo.layer,
  MemoryCardTransactionRepo.layer,
  MemoryCardRevealRepo.layer,
  MemoryInvitationRepo.layer,
  MemoryScaRepo.layer,
  MemoryStablecoinRepo.layer,
  MemoryIncomingDecisionRepo.layer,
  MemoryBulkImportRepo.layer,
  MemoryDelegatedKeyRepo.layer
).pipe(Layer.provide(Layer.merge(MemoryState.layer, MemoryCredentialChanges.versionLayer)))
