import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpRouter from "@effect/platform/HttpRouter"
import { Layer } from "effect"
import type {
  BulkImports,
  AgentActions,
  AgentCustomerScope,
  CardTransactions,
  Invitations,
  Lookups,
  WithdrawalFees,
  Agents,
  ApiTokens,
  Cards,
  Authentication,
  ContactVerifications,
  Customers,
  ExchangeRates,
  ExternalAccounts,
  IdempotencyKeys,
  InternalAccounts,
  PlatformSettings,
  Quotes,
  SandboxPayments,
  SandboxClocks,
  SandboxFunding,
  UnitOfWork,
  WebhookDeliveries,
  EventFeed,
  WebhookDispatch,
  TransactionFeed,
  Transactions,
  Transfers,
  WalletExecutions,
  UmaLookups,
  WebhookSecrets,
  Credentials,
  Logins,
  WalletExports,
  WalletPrivacy,
  WalletSessions,
  CustomerEmailSync,
  Verifications,
  BeneficialOwners,
  KycLinks,
  Documents,
  Stablecoins,
  ScaFactors,
  ScaLogins,
  FactorResets,
  BeneficiaryTrust,
  QuoteAuthorizations
} from "@payrail/core"
import { PayrailApi } from "@payrail/api"
import { ExternalAccountsHandlers, InternalAccountsHandlers } from "./accounts/index.js"
import {
  AgentApprovalsHandlers,
  AgentAuthenticationLive,
  AgentOperationsHandlers,
  AgentsHandlers
} from "./agents/index.js"
import { CardRevealPage, CardsHandlers, SandboxCardsHandlers } from "./cards/index.js"
import type { IncomingApprovals, TransactionCancels } from "@payrail/core"
import { IncomingApprovalsHandlers } from "./payments/index.js"
import type { DelegatedKeys } from "@payrail/core"
import { DelegatedKeysHandlers } from "./wallets/index.js"
import { ScaHandlers, ScaPaymentsHandlers } from "./sca/index.js"
import { CustomersHandlers } from "./customers/index.js"
import { InvitationsHandlers } from "./invitations/index.js"
import { LookupsHandlers } from "./lookups/index.js"
import { StablecoinsHandlers } from "./stablecoins/index.js"
import { BulkImportsHandlers } from "./customers/index.js"
import { WebhooksHandlers } from "./events/index.js"
import { Deprecations, DocsPage, ErrorMapping, Idempotency, SystemHandlers } from "./kernel/index.js"
import {
  ExchangeRatesHandlers,
  QuotesHandlers,
  ReceiverHandlers,
  SandboxPaymentsHandlers,
  TransactionsHandlers,
  TransfersHandlers
} from "./payments/index.js"
import {
  AuthenticationLive,
  CallerTime,
  ConfigHandlers,
  SandboxClockHandlers,
  TokensHandlers
} from "./platforms/index.js"
import {
  BeneficialOwnersHandlers,
  ContactVerificationHandlers,
  DocumentsHandlers,
  KycLinksHandlers,
  VerificationPage,
  VerificationsHandlers
} from "./verification/index.js"
import { WalletAuthHandlers } from "./wallets/index.js"
import { ConsolePage } from "./console/index.js"

/** The domain services the HTTP API calls. */
export type Services =
  | Authentication.Authentication
  | Customers.Customers
  | InternalAccounts.InternalAccounts
  | ExternalAccounts.ExternalAccounts
  | SandboxFunding.SandboxFunding
  | UnitOfWork.UnitOfWork
  | WebhookSecrets.WebhookSecrets
  | WebhookDeliveries.WebhookDeliveries
  | EventFeed.EventFeed
  | WebhookDispatch.WebhookDispatch
  | IdempotencyKeys.IdempotencyKeys
  | PlatformSettings.PlatformSettings
  | ApiTokens.ApiTokens
  | SandboxClocks.SandboxClocks
  | ExchangeRates.ExchangeRates
  | Quotes.Quotes
  | Transactions.Transactions
  | TransactionFeed.TransactionFeed
  | SandboxPayments.SandboxPayments
  | Transfers.Transfers
  | WalletExecutions.WalletExecutions
  | UmaLookups.UmaLookups
  | Credentials.Credentials
  | Logins.Logins
  | WalletSessions.WalletSessions
  | WalletExports.WalletExports
  | WalletPrivacy.WalletPrivacy
  | CustomerEmailSync.CustomerEmailSync
  | ContactVerifications.ContactVerifications
  | Verifications.Verifications
  | BeneficialOwners.BeneficialOwners
  | Documents.Documents
  | KycLinks.KycLinks
  | Agents.Agents
  | AgentCustomerScope.AgentCustomerScope
  | AgentActions.AgentActions
  | Cards.Cards
  | CardTransactions.CardTransactions
  | Invitations.Invitations
  | Lookups.Lookups
  | WithdrawalFees.WithdrawalFees
  | Stablecoins.Stablecoins
  | IncomingApprovals.IncomingApprovals
  | TransactionCancels.TransactionCancels
  | BulkImports.BulkImports
  | DelegatedKeys.DelegatedKeys
  | ScaFactors.ScaFactors
  | ScaLogins.ScaLogins
  | FactorResets.FactorResets
  | BeneficiaryTrust.BeneficiaryTrust
  | QuoteAuthorizations.QuoteAuthorizations

/** Where the OpenAPI document and the API reference page are served. */
export const openApiPath = "/openapi.json"
export const docsPath = DocsPage.docsPath
/** Where the sandbox console is served (docs/console.md). */
export const consolePath = ConsolePage.consolePath

/**
 * Paths match exactly as the OpenAPI document spells them: no case folding, no trailing or doubled slash, so one
 * resource has one URL and a cache or a proxy rule keyed on the path cannot be sidestepped.
 */
export const routerConfig = HttpRouter.setRouterConfig({
  caseSensitive: true,
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false
})

/**
 * The Payrail API implemented: every handler, authentication, the error mapping, `/openapi.json` and a readable
 * reference page at `/docs`. Serve it with `HttpApiBuilder.serve` or turn it into a web handler (`WebHandler`).
 */
export const layer = Layer.mergeAll(
  HttpApiBuilder.middlewareOpenApi({ path: openApiPath }),
  DocsPage.layer,
  VerificationPage.layer,
  CardRevealPage.layer,
  ConsolePage.layer,
  ErrorMapping.layer,
  CallerTime.layer,
  Deprecations.layer
).pipe(
  // Built first, so that it wraps each request inside the error mapping (see `Idempotency.layer`).
  Layer.provide(Idempotency.layer),
  Layer.provideMerge(HttpApiBuilder.api(PayrailApi.PayrailApi)),
  Layer.provide(
    Layer.mergeAll(
      CustomersHandlers.layer,
      InternalAccountsHandlers.layer,
      ExternalAccountsHandlers.layer,
      WebhooksHandlers.layer,
      ConfigHandlers.layer,
      TokensHandlers.layer,
      SandboxClockHandlers.layer,
      ExchangeRatesHandlers.layer,
      QuotesHandlers.layer,
      TransactionsHandlers.layer,
      SandboxPaymentsHandlers.layer,
      TransfersHandlers.layer,
      ReceiverHandlers.layer,
      WalletAuthHandlers.layer,
      ContactVerificationHandlers.layer,
      VerificationsHandlers.layer,
      BeneficialOwnersHandlers.layer,
      KycLinksHandlers.layer,
      DocumentsHandlers.layer,
      AgentsHandlers.layer,
      AgentsHandlers.deviceCodesLayer,
      AgentsHandlers.meLayer,
      AgentOperationsHandlers.layer,
      AgentApprovalsHandlers.layer,
      CardsHandlers.layer,
      SandboxCardsHandlers.layer,
      InvitationsHandlers.layer,
      LookupsHandlers.layer,
      StablecoinsHandlers.layer,
      IncomingApprovalsHandlers.layer,
      BulkImportsHandlers.layer,
      DelegatedKeysHandlers.layer,
      ScaHandlers.layer,
      ScaPaymentsHandlers.trustLayer,
      ScaPaymentsHandlers.quoteLayer,
      SystemHandlers.layer
    )
  ),
  Layer.provide(Idempotency.afterAgentAuthentication(AgentAuthenticationLive.layer)),
  Layer.provide(Idempotency.afterAuthentication(AuthenticationLive.layer)),
  Layer.provide(routerConfig)
)
