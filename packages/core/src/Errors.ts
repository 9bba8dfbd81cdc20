import { Schema } from "effect"

/**
 * Failures of the platform API that are not field validation (see `InvalidInput`). Each carries the spec's `code`,
 * a human `reason` and optional `details`; the HTTP status is attached by `@payrail/api`, not here.
 */

/** The caller's credentials are missing or wrong. Spec code `UNAUTHORIZED` (401). */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  code: Schema.Literal("UNAUTHORIZED"),
  reason: Schema.String
}) {}

/** The credentials are valid but lack a permission the operation needs. Code `FORBIDDEN` (403). */
export class PermissionDenied extends Schema.TaggedError<PermissionDenied>()("PermissionDenied", {
  code: Schema.Literal("FORBIDDEN"),
  reason: Schema.String,
  details: Schema.Struct({ requiredPermission: Schema.String })
}) {}

/** No customer with this id on the caller's platform (customers of other platforms are indistinguishable). */
export class CustomerNotFound extends Schema.TaggedError<CustomerNotFound>()("CustomerNotFound", {
  code: Schema.Literal("USER_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ customerId: Schema.String })
}) {}

/** Another customer of the platform already has this `platformCustomerId`. Code `CONFLICT` (409). */
export class PlatformCustomerIdTaken extends Schema.TaggedError<PlatformCustomerIdTaken>()("PlatformCustomerIdTaken", {
  code: Schema.Literal("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ platformCustomerId: Schema.String })
}) {}

/**
 * The store could not complete the operation (connection lost, disk full…). Code `INTERNAL_ERROR` (500).
 * `operation` and `cause` are for logs; the response body carries only the generic `reason`.
 */
export class StoreFailure extends Schema.TaggedError<StoreFailure>()("StoreFailure", {
  code: Schema.Literal("INTERNAL_ERROR"),
  reason: Schema.String,
  operation: Schema.String,
  cause: Schema.optional(Schema.Defect)
}) {
  /** Wraps a low-level store error raised during `operation`. */
  static wrap(operation: string) {
    return (cause: unknown) => StoreFailure.of(operation, cause)
  }

  /** A store failure during `operation`, optionally caused by a low-level error. */
  static of(operation: string, cause?: unknown) {
    return new StoreFailure({
      code: "INTERNAL_ERROR",
      reason: "The service could not complete the request",
      operation,
      ...(cause === undefined ? {} : { cause })
    })
  }
}

/** No platform with this id (operator tooling; API callers only ever see their own platform). */
export class PlatformNotFound extends Schema.TaggedError<PlatformNotFound>()("PlatformNotFound", {
  code: Schema.Literal("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ platformId: Schema.String })
}) {}

/** No internal account with this id on the caller's platform. Code `NOT_FOUND` (404). */
export class InternalAccountNotFound extends Schema.TaggedError<InternalAccountNotFound>()("InternalAccountNotFound", {
  code: Schema.Literal("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ accountId: Schema.String })
}) {}

/** A sandbox-only operation called by a production platform. Code `FORBIDDEN` (403). */
export class SandboxOnly extends Schema.TaggedError<SandboxOnly>()("SandboxOnly", {
  code: Schema.Literal("FORBIDDEN"),
  reason: Schema.String
}) {}

/** No external account with this id on the caller's platform (or it was deleted). Code `NOT_FOUND` (404). */
export class ExternalAccountNotFound extends Schema.TaggedError<ExternalAccountNotFound>()("ExternalAccountNotFound", {
  code: Schema.Literal("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ accountId: Schema.String })
}) {}

/** The ownership challenge was not started, has expired, or was answered already. Code `CONFLICT` (409). */
export class OwnershipChallengeUnavailable extends Schema.TaggedError<OwnershipChallengeUnavailable>()(
  "OwnershipChallengeUnavailable",
  { code: Schema.Literal("CONFLICT"), reason: Schema.String }
) {}
