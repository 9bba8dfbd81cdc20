import { type Effect, Schema } from "effect"
import { DomainEvent, type Ids } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { StablecoinOperation } from "./StablecoinOperation.js"

/**
 * The stablecoin webhooks (docs/stablecoins.md): `STABLECOIN_OPERATION.<status>` (e.g.
 * `STABLECOIN_OPERATION.COMPLETED`) when an operation is created and on every change of it, with the operation as
 * the API shows it. The reference names none; the name follows `CARD_TRANSACTION.<status>`.
 */
export const eventTypes = [
  "STABLECOIN_OPERATION.CREATED",
  "STABLECOIN_OPERATION.PENDING",
  "STABLECOIN_OPERATION.PROCESSING",
  "STABLECOIN_OPERATION.COMPLETED",
  "STABLECOIN_OPERATION.FAILED",
  "STABLECOIN_OPERATION.EXPIRED"
] as const
export type StablecoinEventType = (typeof eventTypes)[number]

const encode = Schema.encodeSync(StablecoinOperation)

/** The webhook type of an operation in its current status. */
export const typeOf = (operation: StablecoinOperation): StablecoinEventType =>
  `STABLECOIN_OPERATION.${operation.status}`

/** The event reporting `operation` as it now is. */
export const ofOperation = (
  platformId: Platform.PlatformId,
  operation: StablecoinOperation
): Effect.Effect<DomainEvent.DomainEvent, never, Ids.Ids> =>
  DomainEvent.make(platformId, typeOf(operation), encode(operation))
