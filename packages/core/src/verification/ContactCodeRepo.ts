import { Context, type Effect, type Option } from "effect"
import type { Customer } from "../customers/index.js"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { ContactChannel, ContactCode } from "./ContactCode.js"

/**
 * Storage of outstanding contact codes, one per (customer, channel), scoped to one platform. `take` is the
 * single-use guard: it removes the code only if it is still the one with `id`, so of N concurrent correct confirms
 * exactly one gets `true`, and a confirm of a code replaced meanwhile gets `false`. Writes join the caller's unit
 * of work.
 */
export class ContactCodeRepo extends Context.Tag("@payrail/core/ContactCodeRepo")<
  ContactCodeRepo,
  {
    /** Stores the code, replacing any earlier one of its customer and channel. */
    readonly put: (platformId: Platform.PlatformId, code: ContactCode) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly find: (
      platformId: Platform.PlatformId,
      customerId: Customer.CustomerId,
      channel: ContactChannel
    ) => Effect.Effect<Option.Option<ContactCode>, StoreFailure.StoreFailure>
    /** Removes the code `id`; `true` when this call removed it. */
    readonly take: (
      platformId: Platform.PlatformId,
      customerId: Customer.CustomerId,
      channel: ContactChannel,
      id: string
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Counts one wrong code against the code `id`; the count after it (0 if it was replaced or taken). */
    readonly recordFailure: (
      platformId: Platform.PlatformId,
      customerId: Customer.CustomerId,
      channel: ContactChannel,
      id: string
    ) => Effect.Effect<number, StoreFailure.StoreFailure>
  }
>() {}
