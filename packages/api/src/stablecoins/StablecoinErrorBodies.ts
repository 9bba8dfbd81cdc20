import { Ledger, StablecoinErrors } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

/** The wire forms of the stablecoin context's refusals, each with its HTTP status (docs/stablecoins.md). */

const { wire } = ErrorBody

/** 404 `NOT_FOUND`: no stablecoin with this id on the platform. */
export const StablecoinNotFoundBody = wire(StablecoinErrors.StablecoinNotFound, 404, "No such stablecoin")

/** 404 `NOT_FOUND`: no stablecoin operation with this id on the platform. */
export const StablecoinOperationNotFoundBody = wire(
  StablecoinErrors.StablecoinOperationNotFound,
  404,
  "No such stablecoin operation"
)

/** 404 `STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND`: no such link, or (none chosen) no `ACTIVE` link. */
export const ProviderAccountNotFoundBody = wire(
  StablecoinErrors.ProviderAccountNotFound,
  404,
  "No such stablecoin provider account link, or none is active"
)

/** 400 `STABLECOIN_PROVIDER_ACCOUNT_INVALID`. */
export const ProviderAccountInvalidBody = wire(
  StablecoinErrors.ProviderAccountInvalid,
  400,
  "The provider refused the credentials, or the link's credentials are invalid"
)

/** 400 `STABLECOIN_PROVIDER_ACCOUNT_REVOKED`. */
export const ProviderAccountRevokedBody = wire(
  StablecoinErrors.ProviderAccountRevoked,
  400,
  "The link's credentials were revoked at the provider"
)

/** 400 `STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED`. */
export const ProviderAccountSelectionRequiredBody = wire(
  StablecoinErrors.ProviderAccountSelectionRequired,
  400,
  "Several provider account links are active: pass stablecoinProviderAccountId"
)

/** 400 `STABLECOIN_NOT_PROVISIONED`. */
export const StablecoinNotProvisionedBody = wire(
  StablecoinErrors.StablecoinNotProvisioned,
  400,
  "The stablecoin is not provisioned by its provider yet"
)

/** 400 `STABLECOIN_AMOUNT_NOT_REPRESENTABLE` (`details.rule`). */
export const AmountNotRepresentableBody = wire(
  StablecoinErrors.AmountNotRepresentable,
  400,
  "The amount is zero, not a whole minor unit of the base currency, or too large"
)

/** 400 `STABLECOIN_BURN_SOURCE_NOT_SUPPORTED`. */
export const BurnSourceNotSupportedBody = wire(
  StablecoinErrors.BurnSourceNotSupported,
  400,
  "The burn source type is not supported"
)

/** 400 `STABLECOIN_OPERATION_NOT_SUPPORTED`. */
export const OperationNotSupportedBody = wire(
  StablecoinErrors.OperationNotSupported,
  400,
  "The funding source or destination type is not supported"
)

/** 400 `STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED` (`details.rule`). */
export const ExternalAccountNotSupportedBody = wire(
  StablecoinErrors.ExternalAccountNotSupported,
  400,
  "The external account cannot take part in this operation"
)

/** 503 `SERVICE_UNAVAILABLE`: the provider cannot be reached; nothing was recorded. */
export const ProviderUnavailableBody = wire(
  StablecoinErrors.ProviderUnavailable,
  503,
  "The stablecoin provider is temporarily unavailable; retry later"
)

/** 409 `CONFLICT`: the supply would exceed what the ledger holds. */
export const BalanceLimitExceededBody = wire(
  Ledger.BalanceLimitExceeded,
  409,
  "The stablecoin's supply would exceed 9007199254740991 minor units of its base currency"
)

/** 409 `CONFLICT` (`details.rule: stablecoin_already_registered`): the platform registered this token already. */
export const StablecoinAlreadyRegisteredBody = wire(
  StablecoinErrors.StablecoinAlreadyRegistered,
  409,
  "The platform has already registered this token (same network and networkTokenIdentifier)"
)
