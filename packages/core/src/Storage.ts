import type { ApiTokenRepo, CredentialChanges, PlatformRepo } from "./platforms/index.js"
import type { AuthMethodRepo, ExternalAccountRepo, InternalAccountRepo } from "./accounts/index.js"
import type { CustomerRepo } from "./customers/index.js"
import type { BulkImportRepo } from "./customers/index.js"
import type { Jobs } from "./events/index.js"
import type { Ledger } from "./ledger/index.js"
import type { Outbox, RateLimiter, UnitOfWork } from "./kernel/index.js"
import type { WebhookDeliveryRepo, WebhookSecretRepo } from "./events/index.js"
import type { IdempotencyKeys } from "./kernel/index.js"
import type { QuoteRepo, TransactionRepo, UmaLookupRepo } from "./payments/index.js"
import type { AuthSessionRepo, OtpChallengeRepo, SignedRequestRepo, WalletSecretRepo } from "./wallets/index.js"
import type {
  BeneficialOwnerRepo,
  ContactCodeRepo,
  DocumentRepo,
  DocumentStore,
  KycLinkRepo,
  VerificationRepo
} from "./verification/index.js"
import type { AgentActionRepo, AgentRepo, AgentUsageRepo } from "./agents/index.js"
import type { CardRepo, CardReveal, CardTransactionRepo } from "./cards/index.js"
import type { InvitationRepo } from "./invitations/index.js"
import type { ScaRepo } from "./sca/index.js"
import type { StablecoinRepo } from "./stablecoins/index.js"
import type { IncomingDecisionRepo } from "./payments/index.js"
import type { DelegatedKeyRepo } from "./wallets/index.js"

/** Every storage tag. A storage adapter provides all of them from one layer, sharing one store. */
export type Services =
  | UnitOfWork.UnitOfWork
  | PlatformRepo.PlatformRepo
  | ApiTokenRepo.ApiTokenRepo
  | CredentialChanges.CredentialChanges
  | CustomerRepo.CustomerRepo
  | Outbox.Outbox
  | Ledger.Ledger
  | InternalAccountRepo.InternalAccountRepo
  | AuthMethodRepo.AuthMethodRepo
  | ExternalAccountRepo.ExternalAccountRepo
  | RateLimiter.RateLimiter
  | Jobs.Jobs
  | WebhookSecretRepo.WebhookSecretRepo
  | WebhookDeliveryRepo.WebhookDeliveryRepo
  | IdempotencyKeys.IdempotencyKeys
  | QuoteRepo.QuoteRepo
  | TransactionRepo.TransactionRepo
  | UmaLookupRepo.UmaLookupRepo
  | AuthSessionRepo.AuthSessionRepo
  | SignedRequestRepo.SignedRequestRepo
  | OtpChallengeRepo.OtpChallengeRepo
  | WalletSecretRepo.WalletSecretRepo
  | ContactCodeRepo.ContactCodeRepo
  | DocumentRepo.DocumentRepo
  | BeneficialOwnerRepo.BeneficialOwnerRepo
  | DocumentStore.DocumentStore
  | VerificationRepo.VerificationRepo
  | KycLinkRepo.KycLinkRepo
  | AgentRepo.AgentRepo
  | AgentUsageRepo.AgentUsageRepo
  | AgentActionRepo.AgentActionRepo
  | CardRepo.CardRepo
  | CardTransactionRepo.CardTransactionRepo
  | CardReveal.CardRevealRepo
  | InvitationRepo.InvitationRepo
  | ScaRepo.ScaRepo
  | StablecoinRepo.StablecoinRepo
  | IncomingDecisionRepo.IncomingDecisionRepo
  | BulkImportRepo.BulkImportRepo
  | DelegatedKeyRepo.DelegatedKeyRepo
