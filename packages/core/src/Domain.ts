import { Layer } from "effect"
import * as Authentication from "./Authentication.js"
import * as Customers from "./Customers.js"
import * as Platforms from "./Platforms.js"

/** Every use-case service of the domain. */
export type Services = Authentication.Authentication | Customers.Customers | Platforms.Platforms

/**
 * All use cases, built on the ports. Provide a storage adapter (`Storage.Services`), a KYC provider and `Ids`
 * (for example `StorageMemory.layer`, `SandboxKyc.layer`, `Ids.layer`) and the domain is ready to embed.
 */
export const layer = Layer.mergeAll(Authentication.layer, Customers.layer, Platforms.layer)
