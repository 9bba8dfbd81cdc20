import { Schema } from "effect"

/**
 * Failures about who is calling and what their platform may do. Each error has one constructor (`of`), so the
 * code and reason are written here only; the HTTP status is attached by `@payrail/api`.
 */

/**
 * The caller's credentials are missing or wrong. Spec code `UNAUTHORIZED` (401). The reason names the credential the
 * operation takes: the platform's API credentials (Basic), or an agent's access token (Bearer).
 */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  code: Schema.tag("UNAUTHORIZED"),
  reason: Schema.String
}) {
  static of(credential: "api_credentials" | "agent_token" = "api_credentials"): Unauthenticated {
    return new Unauthenticated({
      reason: credential === "agent_token" ? "Invalid or revoked agent access token" : "Invalid API credentials"
    })
  }
}

/** The credentials are valid but lack a permission the operation needs. Code `FORBIDDEN` (403). */
export class PermissionDenied extends Schema.TaggedError<PermissionDenied>()("PermissionDenied", {
  code: Schema.tag("FORBIDDEN"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("requires_permission"), requiredPermission: Schema.String })
}) {
  static of(requiredPermission: string): PermissionDenied {
    return new PermissionDenied({
      reason: `This API token lacks the ${requiredPermission} permission`,
      details: { rule: "requires_permission", requiredPermission }
    })
  }
}

/** No platform with this id (operator tooling; API callers only ever see their own platform). */
export class PlatformNotFound extends Schema.TaggedError<PlatformNotFound>()("PlatformNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ platformId: Schema.String })
}) {
  static of(platformId: string): PlatformNotFound {
    return new PlatformNotFound({ reason: "Platform not found", details: { platformId } })
  }
}

/** No API token with this client id (operator tooling). The client id is not repeated: it names a credential. */
export class ApiTokenNotFound extends Schema.TaggedError<ApiTokenNotFound>()("ApiTokenNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String
}) {
  static of(): ApiTokenNotFound {
    return new ApiTokenNotFound({ reason: "API token not found" })
  }
}

/** A sandbox-only operation called by a production platform. Code `FORBIDDEN` (403). */
export class SandboxOnly extends Schema.TaggedError<SandboxOnly>()("SandboxOnly", {
  code: Schema.tag("FORBIDDEN"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("sandbox_platforms_only") })
}) {
  static of(): SandboxOnly {
    return new SandboxOnly({
      reason: "Only sandbox platforms can use this operation",
      details: { rule: "sandbox_platforms_only" }
    })
  }
}

/** No API token with this id on the caller's platform. Reference code `TOKEN_NOT_FOUND` (404). */
export class TokenNotFound extends Schema.TaggedError<TokenNotFound>()("TokenNotFound", {
  code: Schema.tag("TOKEN_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ tokenId: Schema.String })
}) {
  static of(tokenId: string): TokenNotFound {
    return new TokenNotFound({ reason: "API token not found", details: { tokenId } })
  }
}

/**
 * A token tried to create a token with a permission it does not hold itself. Code `FORBIDDEN` (403), with the
 * permissions it lacks in `details.permissions`.
 */
export class PermissionNotHeld extends Schema.TaggedError<PermissionNotHeld>()("PermissionNotHeld", {
  code: Schema.tag("FORBIDDEN"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("permissions_must_be_held"),
    permissions: Schema.Array(Schema.String)
  })
}) {
  static of(permissions: ReadonlyArray<string>): PermissionNotHeld {
    return new PermissionNotHeld({
      reason: "A token can only grant permissions it holds itself",
      details: { rule: "permissions_must_be_held", permissions }
    })
  }
}
