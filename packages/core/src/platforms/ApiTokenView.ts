import { Redacted, Schema } from "effect"
import { type ApiToken, ApiTokenId, Permission } from "./ApiToken.js"
import type { IssuedToken } from "./Platforms.js"
import { SchemaClass } from "../kernel/index.js"

const fields = {
  id: ApiTokenId,
  name: Schema.String,
  permissions: Schema.Array(Permission),
  clientId: Schema.String.annotations({ description: "The HTTP Basic username of the token" }),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc.annotations({ description: "Tokens never change: always `createdAt`" })
}

/** An API token as the API shows it: never its secret, nor the secret's hash. */
export class ApiTokenView extends SchemaClass.Class<ApiTokenView>("ApiToken")(fields) {}

/** A token just created, with its secret: the only answer that ever carries it. */
export class CreatedApiTokenView extends SchemaClass.Class<CreatedApiTokenView>("CreatedApiToken")({
  ...fields,
  clientSecret: Schema.String.annotations({
    description: "The HTTP Basic password of the token. Shown once: it cannot be read again."
  })
}) {}

/** The public view of a token. */
export const of = (token: ApiToken): ApiTokenView =>
  new ApiTokenView({
    id: token.id,
    name: token.name,
    permissions: token.permissions,
    clientId: token.clientId,
    createdAt: token.createdAt,
    updatedAt: token.createdAt
  })

/** The view of a token just issued, with its secret in clear (for the creation answer only). */
export const created = (issued: IssuedToken): CreatedApiTokenView =>
  new CreatedApiTokenView({ ...of(issued.token), clientSecret: Redacted.value(issued.clientSecret) })
