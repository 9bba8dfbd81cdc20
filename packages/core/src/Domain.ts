import { Layer } from "effect"
import { AccountProvisioning, ExternalAccounts, InternalAccounts } from "./accounts/index.js"
import { Customers } from "./customers/index.js"
import { SandboxClocks, WebhookDeliveries, WebhookDispatch, WebhookSecrets, WebhookTestJob } from "./events/index.js"
import {
  ExchangeRates,
  FxRateCache,
  PaymentJobs,
  Pricer,
  Quotes,
  SandboxFunding,
  SandboxPayments,
  Transactions,
  Transfers,
  UmaLookups
} from "./payments/index.js"
import { ApiTokens, Authentication, Platforms, PlatformSettings } from "./platforms/index.js"

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

/**
 * All use cases, built on the ports. Provide a storage adapter (`Storage.Services`), the providers (KYC, name
 * verification, wallet ownership, exchange rates, rails, the UMA directory: `Sandbox.layer` of `@payrail/sandbox`, or
 * real ones) and
 * `Ids`, and the domain is
 * ready to embed. Creating a platform or a customer also opens its accounts: the accounts context provides the
 * provisioning ports that `Platforms` and `Customers` call inside their units of work. Webhooks go out through the
 * `WebhookTransport` provided to this layer, if any (the reference server's `NodeWebhookTransport`); without one,
 * each delivery attempt fails `not_configured` and is retried.
 */
export const layer = Layer.mergeAll(
  Authentication.layer,
  Customers.layer,
  ExternalAccounts.layer,
  SandboxFunding.layer,
  WebhookSecrets.layer,
  WebhookDeliveries.layer,
  WebhookDispatch.layer,
  PlatformSettings.layer.pipe(Layer.provide(WebhookTestJob.endpointConfiguredLayer)),
  ApiTokens.layer,
  SandboxClocks.layer,
  Layer.merge(SandboxPayments.layer, Transfers.layer).pipe(Layer.provideMerge(Quotes.layer)),
  Transactions.layer,
  PaymentJobs.layer,
  ExchangeRates.layer,
  UmaLookups.layer
).pipe(
  Layer.provideMerge(Pricer.layer),
  Layer.provide(FxRateCache.layer),
  Layer.provideMerge(Platforms.layer),
  Layer.provide(Layer.merge(AccountProvisioning.customerLayer, AccountProvisioning.platformLayer)),
  Layer.provideMerge(InternalAccounts.layer)
)
