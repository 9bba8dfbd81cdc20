import { HttpApiBuilder } from "@effect/platform"
import { Layer } from "effect"
import type { Authentication, Customers, ExternalAccounts, InternalAccounts, SandboxFunding, Store } from "@payrail/core"
import { PayrailApi } from "@payrail/api"
import * as AuthenticationLive from "./AuthenticationLive.js"
import * as CustomersHandlers from "./CustomersHandlers.js"
import * as DocsPage from "./DocsPage.js"
import * as ExternalAccountsHandlers from "./ExternalAccountsHandlers.js"
import * as InternalAccountsHandlers from "./InternalAccountsHandlers.js"
import * as ErrorMapping from "./ErrorMapping.js"
import * as SystemHandlers from "./SystemHandlers.js"

/** The domain services the HTTP API calls. */
export type Services =
  | Authentication.Authentication
  | Customers.Customers
  | InternalAccounts.InternalAccounts
  | ExternalAccounts.ExternalAccounts
  | SandboxFunding.SandboxFunding
  | Store.Store

/** Where the OpenAPI document and the API reference page are served. */
export const openApiPath = "/openapi.json"
export const docsPath = DocsPage.docsPath

/**
 * The Payrail API implemented: every handler, authentication, the error mapping, `/openapi.json` and a readable
 * reference page at `/docs`. Serve it with `HttpApiBuilder.serve` or turn it into a web handler (`WebHandler`).
 */
export const layer = Layer.mergeAll(
  HttpApiBuilder.middlewareOpenApi({ path: openApiPath }),
  DocsPage.layer,
  ErrorMapping.layer
).pipe(
  Layer.provideMerge(HttpApiBuilder.api(PayrailApi.PayrailApi)),
  Layer.provide(
    Layer.mergeAll(CustomersHandlers.layer, InternalAccountsHandlers.layer, ExternalAccountsHandlers.layer, SystemHandlers.layer)
  ),
  Layer.provide(AuthenticationLive.layer)
)
