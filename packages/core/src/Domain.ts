import { Layer } from "effect"
import * as Authentication from "./Authentication.js"
import * as Customers from "./Customers.js"
import * as ExternalAccounts from "./ExternalAccounts.js"
import * as InternalAccounts from "./InternalAccounts.js"
import * as Platforms from "./Platforms.js"
import * as SandboxFunding from "./SandboxFunding.js"

/** Every use-case service of the domain. */
export type Services =
  | Authentication.Authentication
  | Customers.Customers
  | Platforms.Platforms
  | InternalAccounts.InternalAccounts
  | ExternalAccounts.ExternalAccounts
  | SandboxFunding.SandboxFunding

/**
 * All use cases, built on the ports. Provide a storage adapter (`Storage.Services`), the providers (KYC, name
 * verification, wallet ownership: `Sandbox.layer` of `@payrail/sandbox`, or real ones) and `Ids`, and the domain is
 * ready to embed.
 */
export const layer = Layer.mergeAll(
  Authentication.layer,
  Customers.layer,
  Platforms.layer,
  ExternalAccounts.layer,
  SandboxFunding.layer
).pipe(Layer.provideMerge(InternalAccounts.layer))
