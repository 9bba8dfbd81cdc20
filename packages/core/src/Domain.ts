import { Layer } from "effect"
import { AccountProvisioning, ExternalAccounts, InternalAccounts } from "./accounts/index.js"
import { AgentActions, AgentCustomerScope, Agents } from "./agents/index.js"
import { CardJobs, Cards, CardTransactions, TransactionFeed } from "./cards/index.js"
import { Invitations } from "./invitations/index.js"
import { Lookups, WithdrawalFees } from "./lookups/index.js"
import { Customers } from "./customers/index.js"
import { StablecoinJobs, Stablecoins } from "./stablecoins/index.js"
import { BulkImports } from "./customers/index.js"
import { SandboxClocks, WebhookDeliveries, WebhookDispatch, WebhookSecrets, WebhookTestJob } from "./events/index.js"
import * as EventFeed from "./events/EventFeed.js"
import {
  ExchangeRates,
  FxRateCache,
  IncomingApprovals,
  PaymentJobs,
  Pricer,
  Quotes,
  SandboxFunding,
  SandboxPayments,
  TransactionCancels,
  Transactions,
  Transfers,
  WalletExecutions,
  UmaLookups
} from "./payments/index.js"
import { ApiTokens, Authentication, Platforms, PlatformSettings } from "./platforms/index.js"
import {
  BeneficiaryTrust,
  FactorResets,
  QuoteAuthorizations,
  ScaFactors,
  ScaJobs,
  ScaLogins,
  ScaProofs
} from "./sca/index.js"
import { BeneficialOwners, ContactVerifications, Documents, KycLinks, Verifications } from "./verification/index.js"
import { DelegatedKeys } from "./wallets/index.js"
import {
  CustomerEmailSync,
  Credentials,
  Logins,
  type OidcTokens,
  type OtpChallenges,
  type OtpDelivery,
  type Passkeys,
  SignedRetry,
  WalletExports,
  type WalletKeys,
  WalletPrivacy,
  WalletSessions,
  type WalletSignatures
} from "./wallets/index.js"

/** Every use-case service of the domain. */
export type Services =
  | Authentication.Authentication
  | Customers.Customers
  | Platforms.Platforms
  | InternalAccounts.InternalAccounts
  | ExternalAccounts.ExternalAccounts
  | SandboxFunding.SandboxFunding
  | WebhookSecrets.WebhookSecrets
  | WebhookDeliveries.WebhookDeliveries
  | EventFeed.EventFeed
  | WebhookDispatch.WebhookDispatch
  | PlatformSettings.PlatformSettings
  | ApiTokens.ApiTokens
  | SandboxClocks.SandboxClocks
  | Quotes.Quotes
  | Transactions.Transactions
  | PaymentJobs.PaymentJobs
  | Pricer.Pricer
  | ExchangeRates.ExchangeRates
  | SandboxPayments.SandboxPayments
  | Transfers.Transfers
  | UmaLookups.UmaLookups
  | SignedRetry.SignedRetry
  | Verifications.Verifications
  | Credentials.Credentials
  | Logins.Logins
  | WalletSessions.WalletSessions
  | WalletExports.WalletExports
  | WalletPrivacy.WalletPrivacy
  | Documents.Documents
  | CustomerEmailSync.CustomerEmailSync
  | WalletExecutions.WalletExecutions
  | SignedRetry.SignedRetry
  | ContactVerifications.ContactVerifications
  | BeneficialOwners.BeneficialOwners
  | KycLinks.KycLinks
  | Agents.Agents
  | AgentCustomerScope.AgentCustomerScope
  | AgentActions.AgentActions
  | Cards.Cards
  | CardJobs.CardJobs
  | TransactionFeed.TransactionFeed
  | CardTransactions.CardTransactions
  | Invitations.Invitations
  | Lookups.Lookups
  | WithdrawalFees.WithdrawalFees
  | ScaFactors.ScaFactors
  | ScaLogins.ScaLogins
  | FactorResets.FactorResets
  | BeneficiaryTrust.BeneficiaryTrust
  | QuoteAuthorizations.QuoteAuthorizations
  | ScaJobs.ScaJobs
  | Stablecoins.Stablecoins
  | IncomingApprovals.IncomingApprovals
  | TransactionCancels.TransactionCancels
  | BulkImports.BulkImports
  | StablecoinJobs.StablecoinJobs
  | DelegatedKeys.DelegatedKeys

/**
 * The ports the wallet use cases need beyond storage: the crypto ports (`WalletAuth.layer` of
 * `@payrail/wallet-auth`) and the delivery of one-time codes.
 */
export type WalletPorts =
  | WalletSignatures.WalletSignatures
  | WalletKeys.WalletKeys
  | OtpChallenges.OtpChallenges
  | OidcTokens.OidcTokens
  | Passkeys.Passkeys
  | OtpDelivery.OtpDelivery

/**
 * The embedded wallet use cases (credentials, logins, sessions, export, privacy, the customer email its `EMAIL_OTP`
 * credentials follow); they share the domain's `SignedRetry`, and the email sync wraps `Customers`.
 */
export const walletLayer = Layer.mergeAll(
  Credentials.layer,
  Logins.layer,
  WalletSessions.layer,
  WalletExports.layer,
  WalletPrivacy.layer,
  CustomerEmailSync.layer
)

// The proof machinery the SCA services share (it reads customers through the domain's `Customers`).
const scaProofs = ScaProofs.layer.pipe(Layer.provide(Customers.layer))

/** Strong customer authentication: factors, logins, resets, trusted beneficiaries and its jobs. */
export const scaLayer = Layer.mergeAll(
  ScaFactors.layer,
  ScaLogins.layer,
  FactorResets.layer,
  BeneficiaryTrust.layer,
  ScaJobs.layer
).pipe(Layer.provide(scaProofs), Layer.provide(Customers.layer))

/**
 * All use cases, built on the ports. Provide a storage adapter (`Storage.Services`), the providers (KYC, name
 * verification, wallet ownership, exchange rates, rails, the UMA directory: `Sandbox.layer` of `@payrail/sandbox`, or
 * real ones) and
 * `Ids`, and the wallet ports ({@link WalletPorts}: `WalletAuth.layer` of `@payrail/wallet-auth` and an
 * `OtpDelivery`, e.g. `SandboxOtpDelivery`), and the domain is ready to embed. Creating a platform or a customer also opens its accounts: the accounts context provides the
 * provisioning ports that `Platforms` and `Customers` call inside their units of work. Webhooks go out through the
 * `WebhookTransport` provided to this layer, if any (the reference server's `NodeWebhookTransport`); without one,
 * each delivery attempt fails `not_configured` and is retried.
 */
export const layer = Layer.mergeAll(
  Authentication.layer,
  ExternalAccounts.layer,
  SandboxFunding.layer,
  WebhookSecrets.layer,
  WebhookDeliveries.layer,
  EventFeed.layer,
  WebhookDispatch.layer,
  PlatformSettings.layer.pipe(Layer.provide(WebhookTestJob.endpointConfiguredLayer)),
  ApiTokens.layer,
  SandboxClocks.layer,
  Layer.mergeAll(
    // Held incoming payments are decided by the platform's webhook reply, sent through the dispatcher above.
    SandboxPayments.layer.pipe(Layer.provideMerge(IncomingApprovals.layer.pipe(Layer.provide(WebhookDispatch.layer)))),
    AgentActions.layer.pipe(Layer.provideMerge(Transfers.layer)),
    WalletExecutions.layer,
    QuoteAuthorizations.layer.pipe(Layer.provide(scaProofs))
  ).pipe(
    Layer.provideMerge(Quotes.layer.pipe(Layer.provide(QuoteAuthorizations.gateLayer.pipe(Layer.provide(scaProofs)))))
  ),
  Transactions.layer,
  // Both kinds of transaction in one list, over the transaction service above (layers are memoised).
  TransactionFeed.layer.pipe(Layer.provide(Transactions.layer)),
  // The agent's view of its customer: shares the account and transaction services above.
  AgentCustomerScope.layer.pipe(
    Layer.provide(Layer.merge(ExternalAccounts.layer, TransactionFeed.layer.pipe(Layer.provide(Transactions.layer))))
  ),
  PaymentJobs.layer,
  CardJobs.layer,
  ExchangeRates.layer,
  UmaLookups.layer,
  BeneficialOwners.layer,
  Verifications.layer,
  Documents.layer,
  Cards.layer,
  CardTransactions.layer,
  Invitations.layer,
  Lookups.layer,
  WithdrawalFees.layer,
  scaLayer,
  Stablecoins.layer,
  TransactionCancels.layer,
  StablecoinJobs.layer,
  DelegatedKeys.layer,
  Layer.mergeAll(walletLayer, KycLinks.layer, ContactVerifications.layer, Agents.layer).pipe(
    Layer.provideMerge(Customers.layer)
  ),
  BulkImports.layer.pipe(Layer.provide(Customers.layer))
).pipe(
  Layer.provideMerge(SignedRetry.layer),
  Layer.provideMerge(Pricer.layer),
  Layer.provide(FxRateCache.layer),
  Layer.provideMerge(Platforms.layer),
  Layer.provide(Layer.merge(AccountProvisioning.customerLayer, AccountProvisioning.platformLayer)),
  Layer.provideMerge(InternalAccounts.layer)
)
