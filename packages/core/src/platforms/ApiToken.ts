import { Schema } from "effect"
import { PlatformId } from "./Platform.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `ApiToken:<uuid>`. */
export const ApiTokenId = ResourceId.make("ApiToken")
export type ApiTokenId = typeof ApiTokenId.Type

/** What a token may do: `VIEW` reads, `TRANSACT` moves money, `MANAGE` changes customers, accounts and settings. */
export const Permission = Schema.Literal("VIEW", "TRANSACT", "MANAGE")
export type Permission = typeof Permission.Type

/**
 * An API token of a platform. The client id is the Basic username; only the SHA-256 of the secret is kept
 * (`secretHash`, lowercase hex), so a stolen database does not yield usable credentials.
 */
export class ApiToken extends SchemaClass.Class<ApiToken>("ApiToken")({
  id: ApiTokenId,
  platformId: PlatformId,
  name: Schema.String,
  clientId: Schema.String,
  secretHash: Schema.String,
  permissions: Schema.Array(Permission),
  createdAt: Schema.DateTimeUtc
}) {}
