import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpRouter from "@effect/platform/HttpRouter"
import { Context, Layer } from "effect"
import {
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
import { AgentAuthentication as AgentAuth, Authentication as Auth, PayrailApi } from "@payrail/api"
import { ExternalAccountsHandlers, InternalAccountsHandlers } from "./accounts/index.js"
import {
  AgentApprovalsHandlers,
  AgentAuthenticationLive,
  AgentOperationsHandlers,
  AgentsHandlers
} from "./agents/index.js"
import { CardRevealPage, CardsHandlers, SandboxCardsHandlers } from "./cards/index.js"
import { IncomingApprovals, TransactionCancels } from "@payrail/core"
import { IncomingApprovalsHandlers } from "./payments/index.js"
import { DelegatedKeys } from "@payrail/core"
import { DelegatedKeysHandlers } from "./wallets/index.js"
import { ScaHandlers, ScaPaymentsHandlers } from "./sca/index.js"
import { CustomersHandlers } from "./customers/index.js"
import { InvitationsHandlers } from "./invitations/index.js"
import { LookupsHandlers } from "./lookups/index.js"
import { StablecoinsHandlers } from "./stablecoins/index.js"
import { BulkImportsHandlers } from "./customers/index.js"
import { WebhooksHandlers } from "./events/index.js"
import {
  Deprecations,
  DocsPage,
  ErrorMapping,
  Idempotency,
  Isolated,
  RunToEnd,
  SystemHandlers
} from "./kernel/index.js"
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

const only = Isolated.isolated
const auth = Auth.Authentication
const agentAuth = AgentAuth.AgentAuthentication

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
  Deprecations.layer,
  RunToEnd.layer
).pipe(
  // Built first, so that it wraps each request inside the error mapping (see `Idempotency.layer`).
  Layer.provide(Idempotency.layer),
  Layer.provideMerge(HttpApiBuilder.api(PayrailApi.PayrailApi)),
  Layer.provide(
    Layer.mergeAll(
      only(CustomersHandlers.layer, Context.pick(Customers.Customers, CustomerEmailSync.CustomerEmailSync, auth)),
      only(
        InternalAccountsHandlers.layer,
        Context.pick(InternalAccounts.InternalAccounts, SandboxFunding.SandboxFunding, auth)
      ),
      only(
        ExternalAccountsHandlers.layer,
        Context.pick(ExternalAccounts.ExternalAccounts, BeneficiaryTrust.BeneficiaryTrust, auth)
      ),
      only(
        WebhooksHandlers.layer,
        Context.pick(
          WebhookSecrets.WebhookSecrets,
          WebhookDeliveries.WebhookDeliveries,
          WebhookDispatch.WebhookDispatch,
          EventFeed.EventFeed,
          auth
        )
      ),
      only(ConfigHandlers.layer, Context.pick(PlatformSettings.PlatformSettings, auth)),
      only(TokensHandlers.layer, Context.pick(ApiTokens.ApiTokens, auth)),
      only(SandboxClockHandlers.layer, Context.pick(SandboxClocks.SandboxClocks, auth)),
      only(ExchangeRatesHandlers.layer, Context.pick(ExchangeRates.ExchangeRates, auth)),
      only(QuotesHandlers.layer, Context.pick(Quotes.Quotes, WalletExecutions.WalletExecutions, auth)),
      only(TransactionsHandlers.layer, Context.pick(Transactions.Transactions, TransactionFeed.TransactionFeed, auth)),
      only(SandboxPaymentsHandlers.layer, Context.pick(SandboxPayments.SandboxPayments, auth)),
      only(TransfersHandlers.layer, Context.pick(Transfers.Transfers, auth)),
      only(ReceiverHandlers.layer, Context.pick(UmaLookups.UmaLookups, auth)),
      only(
        WalletAuthHandlers.layer,
        Context.pick(
          Credentials.Credentials,
          Logins.Logins,
          WalletSessions.WalletSessions,
          WalletExports.WalletExports,
          WalletPrivacy.WalletPrivacy,
          auth
        )
      ),
      only(ContactVerificationHandlers.layer, Context.pick(ContactVerifications.ContactVerifications, auth)),
      only(VerificationsHandlers.layer, Context.pick(Verifications.Verifications, auth)),
      only(BeneficialOwnersHandlers.layer, Context.pick(BeneficialOwners.BeneficialOwners, auth)),
      only(KycLinksHandlers.layer, Context.pick(KycLinks.KycLinks, auth)),
      only(DocumentsHandlers.layer, Context.pick(Documents.Documents, auth)),
      only(AgentsHandlers.layer, Context.pick(Agents.Agents, auth)),
      only(AgentsHandlers.deviceCodesLayer, Context.pick(Agents.Agents)),
      only(AgentsHandlers.meLayer, Context.pick(Agents.Agents, agentAuth)),
      only(
        AgentOperationsHandlers.layer,
        Context.pick(AgentCustomerScope.AgentCustomerScope, AgentActions.AgentActions, agentAuth)
      ),
      only(
        AgentApprovalsHandlers.layer,
        Context.pick(AgentActions.AgentActions, IncomingApprovals.IncomingApprovals, auth)
      ),
      only(CardsHandlers.layer, Context.pick(Cards.Cards, auth)),
      only(SandboxCardsHandlers.layer, Context.pick(CardTransactions.CardTransactions, auth)),
      only(InvitationsHandlers.layer, Context.pick(Invitations.Invitations, auth)),
      only(LookupsHandlers.layer, Context.pick(Lookups.Lookups, WithdrawalFees.WithdrawalFees, auth)),
      only(StablecoinsHandlers.layer, Context.pick(Stablecoins.Stablecoins, auth)),
      only(
        IncomingApprovalsHandlers.layer,
        Context.pick(IncomingApprovals.IncomingApprovals, TransactionCancels.TransactionCancels, auth)
      ),
      only(BulkImportsHandlers.layer, Context.pick(BulkImports.BulkImports, auth)),
      only(DelegatedKeysHandlers.layer, Context.pick(DelegatedKeys.DelegatedKeys, auth)),
      only(
        ScaHandlers.layer,
        Context.pick(ScaFactors.ScaFactors, ScaLogins.ScaLogins, FactorResets.FactorResets, auth)
      ),
      only(ScaPaymentsHandlers.trustLayer, Context.pick(BeneficiaryTrust.BeneficiaryTrust, auth)),
      only(ScaPaymentsHandlers.quoteLayer, Context.pick(QuoteAuthorizations.QuoteAuthorizations, auth)),
      only(SystemHandlers.layer, Context.pick(UnitOfWork.UnitOfWork))
    )
  ),
  Layer.provide(Idempotency.afterAgentAuthentication(AgentAuthenticationLive.layer)),
  Layer.provide(Idempotency.afterAuthentication(AuthenticationLive.layer)),
  Layer.provide(routerConfig)
)
