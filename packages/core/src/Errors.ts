/**
 * Every failure of the domain's API in one place, for code that maps them all (the HTTP contract, an embedder's
 * error handler). Each is defined beside its concept (`CustomerErrors`, `AccountErrors`, `LedgerErrors`…), with one
 * constructor that fixes its code, reason and rule.
 */
export {
  ExternalAccountExists,
  ExternalAccountNotFound,
  InternalAccountNotFound,
  InvalidBankAccount,
  InvalidTransition,
  OwnershipChallengeUnavailable
} from "./accounts/AccountErrors.js"
export {
  CustomerDeleted,
  CustomerNotFound,
  EndUserTermsVersionNotFound,
  PlatformCustomerIdTaken,
  UmaAddressTaken
} from "./customers/CustomerErrors.js"
export { WebhookDeliveryError, WebhookDeliveryNotFound, WebhookEndpointNotSet } from "./events/WebhookErrors.js"
export { InvalidInput } from "./kernel/InvalidInput.js"
export { ContactCodeRefused, ContactVerificationConflict } from "./verification/ContactVerificationErrors.js"
export { RateLimited } from "./kernel/RateLimited.js"
export { StoreFailure } from "./kernel/StoreFailure.js"
export {
  BalanceLimitExceeded,
  IdempotencyKeyReused,
  InsufficientFunds,
  InvalidPosting,
  ReservationSettled
} from "./ledger/LedgerErrors.js"
export {
  AmountOutOfRange,
  InvalidAmount,
  InvalidCurrency,
  QuoteRateUnavailable,
  TransactionSizeLimitExceeded
} from "./payments/PricingErrors.js"
export {
  ApiTokenNotFound,
  PermissionDenied,
  PermissionNotHeld,
  PlatformNotFound,
  SandboxOnly,
  TokenNotFound,
  Unauthenticated
} from "./platforms/PlatformErrors.js"
export { VerificationFinal, VerificationNotFound } from "./verification/VerificationErrors.js"
