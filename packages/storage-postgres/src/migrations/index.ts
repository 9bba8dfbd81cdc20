import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Effect } from "effect"
import platforms from "./0001_platforms.js"
import apiTokens from "./0002_api_tokens.js"
import customers from "./0003_customers.js"
import outbox from "./0004_outbox.js"
import ledger from "./0005_ledger.js"
import internalAccounts from "./0006_internal_accounts.js"
import authMethods from "./0007_auth_methods.js"
import externalAccounts from "./0008_external_accounts.js"
import ledgerPostBalances from "./0009_ledger_post_balances.js"
import customerCounts from "./0010_customer_counts.js"
import credentialChanges from "./0011_credential_changes.js"
import rateLimits from "./0012_rate_limits.js"
import ledgerBalanceBounds from "./0013_ledger_balance_bounds.js"
import jobs from "./0014_jobs.js"
import webhooks from "./0015_webhooks.js"
import webhookDeliveryJobs from "./0016_webhook_delivery_jobs.js"
import idempotencyKeys from "./0017_idempotency_keys.js"
import sandboxClocks from "./0018_sandbox_clocks.js"
import payments from "./0019_payments.js"
import jobsWakeWhenDue from "./0020_jobs_wake_when_due.js"
import customerUmaAddresses from "./0021_customer_uma_addresses.js"
import umaLookups from "./0022_uma_lookups.js"
import walletAuth from "./0023_wallet_auth.js"
import verificationRecords from "./0024_verification_records.js"
import documentFiles from "./0025_document_files.js"
import verifications from "./0026_verifications.js"
import customerLifecycle from "./0027_customer_lifecycle.js"
import kycLinks from "./0028_kyc_links.js"
import umaLookupExpiry from "./0029_uma_lookup_expiry.js"
import agents from "./0030_agents.js"
import cards from "./0031_cards.js"
import invitations from "./0033_invitations.js"
import sca from "./0032_sca.js"
import stablecoins from "./0034_stablecoins.js"
import incomingDecisions from "./0035_incoming_decisions.js"
import bulkImports from "./0036_bulk_imports.js"
import stablecoinTokens from "./0037_stablecoin_tokens.js"
import eventFeed from "./0038_event_feed.js"
import activeSessions from "./0039_active_sessions.js"
import statementChecks from "./0040_statement_checks.js"
import customerUmaAddressUnique from "./0041_customer_uma_address_unique.js"

/**
 * Every migration, keyed `<id>_<name>` as its module is named: the id and name the Migrator records in
 * `payrail_migrations`. A schema change is a new module with the next id, added here; a migration that has
 * shipped never changes, since databases that applied it do not run it again.
 *
 * Conventions of the statements: ids are collated "C", so that ordering them matches JavaScript string order, as
 * in the memory adapter; each record is kept encoded in `record`, and the other columns exist to find, filter and
 * order rows.
 */
export const all: Readonly<Record<string, Effect.Effect<void, SqlError, SqlClient.SqlClient>>> = {
  "0001_platforms": platforms,
  "0002_api_tokens": apiTokens,
  "0003_customers": customers,
  "0004_outbox": outbox,
  "0005_ledger": ledger,
  "0006_internal_accounts": internalAccounts,
  "0007_auth_methods": authMethods,
  "0008_external_accounts": externalAccounts,
  "0009_ledger_post_balances": ledgerPostBalances,
  "0010_customer_counts": customerCounts,
  "0011_credential_changes": credentialChanges,
  "0012_rate_limits": rateLimits,
  "0013_ledger_balance_bounds": ledgerBalanceBounds,
  "0014_jobs": jobs,
  "0015_webhooks": webhooks,
  "0016_webhook_delivery_jobs": webhookDeliveryJobs,
  "0017_idempotency_keys": idempotencyKeys,
  "0018_sandbox_clocks": sandboxClocks,
  "0019_payments": payments,
  "0020_jobs_wake_when_due": jobsWakeWhenDue,
  "0021_customer_uma_addresses": customerUmaAddresses,
  "0022_uma_lookups": umaLookups,
  "0023_wallet_auth": walletAuth,
  "0024_verification_records": verificationRecords,
  "0025_document_files": documentFiles,
  "0026_verifications": verifications,
  "0027_customer_lifecycle": customerLifecycle,
  "0028_kyc_links": kycLinks,
  "0029_uma_lookup_expiry": umaLookupExpiry,
  "0030_agents": agents,
  "0031_cards": cards,
  "0032_sca": sca,
  "0033_invitations": invitations,
  "0034_stablecoins": stablecoins,
  "0035_incoming_decisions": incomingDecisions,
  "0036_bulk_imports": bulkImports,
  "0037_stablecoin_tokens": stablecoinTokens,
  "0038_event_feed": eventFeed,
  "0039_active_sessions": activeSessions,
  "0040_statement_checks": statementChecks,
  "0041_customer_uma_address_unique": customerUmaAddressUnique
}
