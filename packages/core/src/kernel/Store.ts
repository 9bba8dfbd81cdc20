import { Context, type Effect } from "effect"
import type { StoreFailure } from "./StoreFailure.js"

/**
 * The unit of work. `transaction(effect)` runs `effect` atomically: every repository write and outbox append made
 * inside it commits together, or, when it fails or is interrupted, none does. A nested call is a savepoint: when
 * it fails, its own writes are undone and the outer unit may recover and go on; they commit only with the outer one.
 * Writes made outside a transaction are each atomic on their own.
 */
export class Store extends Context.Tag("@payrail/core/Store")<
  Store,
  {
    readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
  }
>() {}
