import { Schema } from "effect"
import type { AccountErrors } from "../accounts/index.js"
import type { InvalidInput, StoreFailure } from "../kernel/index.js"
import type { Ledger } from "../ledger/index.js"

/**
 * Failures of stablecoin issuance (docs/stablecoins.md), with our spec's `STABLECOIN_*` codes. One constructor each
 * (`of`); the HTTP status is attached by `@payrail/api` (in brackets here).
 */

/** No stablecoin with this id on the caller's platform [404]. */
export class StablecoinNotFound extends Schema.TaggedError<StablecoinNotFound>()("StablecoinNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ stablecoinId: Schema.String })
}) {
  static of(stablecoinId: string): StablecoinNotFound {
    return new StablecoinNotFound({ reason: "Stablecoin not found", details: { stablecoinId } })
  }
}

/** No stablecoin operation with this id on the caller's platform [404]. */
export class StablecoinOperationNotFound extends Schema.TaggedError<StablecoinOperationNotFound>()(
  "StablecoinOperationNotFound",
  {
    code: Schema.tag("NOT_FOUND"),
    reason: Schema.String,
    details: Schema.Struct({ stablecoinOperationId: Schema.String })
  }
) {
  static of(stablecoinOperationId: string): StablecoinOperationNotFound {
    return new StablecoinOperationNotFound({
      reason: "Stablecoin operation not found",
      details: { stablecoinOperationId }
    })
  }
}

/**
 * No such provider account link on the caller's platform, or (`stablecoinProviderAccountId` absent) none is
 * `ACTIVE`: link one first [404].
 */
export class ProviderAccountNotFound extends Schema.TaggedError<ProviderAccountNotFound>()(
  "StablecoinProviderAccountNotFound",
  {
    code: Schema.tag("STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND"),
    reason: Schema.String,
    details: Schema.Struct({ stablecoinProviderAccountId: Schema.optional(Schema.String) })
  }
) {
  static of(stablecoinProviderAccountId?: string): ProviderAccountNotFound {
    return stablecoinProviderAccountId === undefined
      ? new ProviderAccountNotFound({
          reason: "No active stablecoin provider account is linked: link one first",
          details: {}
        })
      : new ProviderAccountNotFound({
          reason: "Stablecoin provider account link not found",
          details: { stablecoinProviderAccountId }
        })
  }
}

/**
 * The platform has already registered the token on this network: a token is one stablecoin per platform, known by
 * its `network` and `networkTokenIdentifier` (its identity on chain), whichever link registered it [409, the
 * reference's generic `CONFLICT`].
 */
export class StablecoinAlreadyRegistered extends Schema.TaggedError<StablecoinAlreadyRegistered>()(
  "StablecoinAlreadyRegistered",
  {
    code: Schema.tag("CONFLICT"),
    reason: Schema.String,
    details: Schema.Struct({
      rule: Schema.Literal("stablecoin_already_registered"),
      network: Schema.String,
      networkTokenIdentifier: Schema.String
    })
  }
) {
  static of(network: string, networkTokenIdentifier: string): StablecoinAlreadyRegistered {
    return new StablecoinAlreadyRegistered({
      reason: "This token is already registered as a stablecoin of the platform",
      details: { rule: "stablecoin_already_registered", network, networkTokenIdentifier }
    })
  }
}

/** The provider refused the credentials, or the link's status is `INVALID` [400]. */
export class ProviderAccountInvalid extends Schema.TaggedError<ProviderAccountInvalid>()(
  "StablecoinProviderAccountInvalid",
  {
    code: Schema.tag("STABLECOIN_PROVIDER_ACCOUNT_INVALID"),
    reason: Schema.String,
    details: Schema.Struct({ stablecoinProviderAccountId: Schema.optional(Schema.String) })
  }
) {
  static of(stablecoinProviderAccountId?: string): ProviderAccountInvalid {
    return stablecoinProviderAccountId === undefined
      ? new ProviderAccountInvalid({ reason: "The provider refused the credentials", details: {} })
      : new ProviderAccountInvalid({
          reason: "The provider account link's credentials are invalid: link the account again",
          details: { stablecoinProviderAccountId }
        })
  }
}

/** The link's credentials were revoked at the provider [400]. */
export class ProviderAccountRevoked extends Schema.TaggedError<ProviderAccountRevoked>()(
  "StablecoinProviderAccountRevoked",
  {
    code: Schema.tag("STABLECOIN_PROVIDER_ACCOUNT_REVOKED"),
    reason: Schema.String,
    details: Schema.Struct({ stablecoinProviderAccountId: Schema.String })
  }
) {
  static of(stablecoinProviderAccountId: string): ProviderAccountRevoked {
    return new ProviderAccountRevoked({
      reason: "The provider account link's credentials were revoked: link the account again",
      details: { stablecoinProviderAccountId }
    })
  }
}

/** Several provider account links are `ACTIVE` and the request chose none: pass `stablecoinProviderAccountId` [400]. */
export class ProviderAccountSelectionRequired extends Schema.TaggedError<ProviderAccountSelectionRequired>()(
  "StablecoinProviderAccountSelectionRequired",
  {
    code: Schema.tag("STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED"),
    reason: Schema.String,
    details: Schema.Struct({ field: Schema.Literal("stablecoinProviderAccountId") })
  }
) {
  static of(): ProviderAccountSelectionRequired {
    return new ProviderAccountSelectionRequired({
      reason: "Several stablecoin provider accounts are linked: pass stablecoinProviderAccountId",
      details: { field: "stablecoinProviderAccountId" }
    })
  }
}

/** The stablecoin's issuance is not `PROVISIONED` at the provider yet: it cannot be minted or burned [400]. */
export class StablecoinNotProvisioned extends Schema.TaggedError<StablecoinNotProvisioned>()(
  "StablecoinNotProvisioned",
  {
    code: Schema.tag("STABLECOIN_NOT_PROVISIONED"),
    reason: Schema.String,
    details: Schema.Struct({ stablecoinId: Schema.String, issuanceStatus: Schema.String })
  }
) {
  static of(stablecoinId: string, issuanceStatus: string): StablecoinNotProvisioned {
    return new StablecoinNotProvisioned({
      reason: `The stablecoin is not provisioned by its provider (issuanceStatus ${issuanceStatus})`,
      details: { stablecoinId, issuanceStatus }
    })
  }
}

/**
 * The amount is zero, or is not a whole minor unit (cent) of the base currency at the stablecoin's decimals, or is
 * beyond what the ledger holds [400].
 */
export class AmountNotRepresentable extends Schema.TaggedError<AmountNotRepresentable>()(
  "StablecoinAmountNotRepresentable",
  {
    code: Schema.tag("STABLECOIN_AMOUNT_NOT_REPRESENTABLE"),
    reason: Schema.String,
    details: Schema.Struct({
      amount: Schema.String,
      decimals: Schema.Int,
      baseCurrency: Schema.String,
      rule: Schema.Literal("zero", "not_whole_base_unit", "too_large")
    })
  }
) {
  static of(
    amount: string,
    decimals: number,
    baseCurrency: string,
    rule: "zero" | "not_whole_base_unit" | "too_large"
  ): AmountNotRepresentable {
    const reasons = {
      zero: "The amount must be positive",
      not_whole_base_unit: `The amount must convert exactly to a whole minor unit of ${baseCurrency}`,
      too_large: "The amount is larger than the ledger holds"
    } as const
    return new AmountNotRepresentable({ reason: reasons[rule], details: { amount, decimals, baseCurrency, rule } })
  }
}

/** The burn source type is not supported (Payrail internal accounts are reserved) [400]. */
export class BurnSourceNotSupported extends Schema.TaggedError<BurnSourceNotSupported>()(
  "StablecoinBurnSourceNotSupported",
  {
    code: Schema.tag("STABLECOIN_BURN_SOURCE_NOT_SUPPORTED"),
    reason: Schema.String,
    details: Schema.Struct({ type: Schema.String })
  }
) {
  static of(type: string): BurnSourceNotSupported {
    return new BurnSourceNotSupported({ reason: `Burn source ${type} is not supported`, details: { type } })
  }
}

/** A mint funding source or destination type that is reserved and not supported yet [400]. */
export class OperationNotSupported extends Schema.TaggedError<OperationNotSupported>()(
  "StablecoinOperationNotSupported",
  {
    code: Schema.tag("STABLECOIN_OPERATION_NOT_SUPPORTED"),
    reason: Schema.String,
    details: Schema.Struct({ field: Schema.String, type: Schema.String })
  }
) {
  static of(field: string, type: string): OperationNotSupported {
    return new OperationNotSupported({ reason: `${field} of type ${type} is not supported`, details: { field, type } })
  }
}

/**
 * The external account cannot take part: a mint goes to (and an external burn source is) a Spark wallet, a burn
 * pays out to a bank account, an ACH debit pulls from one; the account must be `ACTIVE` [400].
 */
export class ExternalAccountNotSupported extends Schema.TaggedError<ExternalAccountNotSupported>()(
  "StablecoinExternalAccountNotSupported",
  {
    code: Schema.tag("STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED"),
    reason: Schema.String,
    details: Schema.Struct({
      field: Schema.String,
      externalAccountId: Schema.String,
      rule: Schema.Literal("spark_wallet_required", "bank_account_required", "not_active")
    })
  }
) {
  static of(
    field: string,
    externalAccountId: string,
    rule: "spark_wallet_required" | "bank_account_required" | "not_active"
  ): ExternalAccountNotSupported {
    const reasons = {
      spark_wallet_required: "The external account must be a Spark wallet",
      bank_account_required: "The external account must be a bank account",
      not_active: "The external account is not active"
    } as const
    return new ExternalAccountNotSupported({ reason: reasons[rule], details: { field, externalAccountId, rule } })
  }
}

/** The provider cannot be reached for a mint or a burn now; nothing was recorded: retry later [503]. */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()("StablecoinProviderUnavailable", {
  code: Schema.tag("SERVICE_UNAVAILABLE"),
  reason: Schema.String,
  details: Schema.Struct({ provider: Schema.String })
}) {
  static of(provider: string): ProviderUnavailable {
    return new ProviderUnavailable({
      reason: "The stablecoin provider is temporarily unavailable; retry later",
      details: { provider }
    })
  }
}

/** Why a mint or a burn is refused, whichever it is. */
type OperationFailure =
  | InvalidInput.InvalidInput
  | StablecoinNotFound
  | ProviderAccountNotFound
  | ProviderAccountInvalid
  | ProviderAccountRevoked
  | StablecoinNotProvisioned
  | AmountNotRepresentable
  | ExternalAccountNotSupported
  | AccountErrors.ExternalAccountNotFound
  | ProviderUnavailable
  | StoreFailure.StoreFailure

/** Why a mint is refused. */
export type MintFailure = OperationFailure | OperationNotSupported | Ledger.BalanceLimitExceeded

/** Why a burn is refused. */
export type BurnFailure = OperationFailure | BurnSourceNotSupported | Ledger.InsufficientFunds
