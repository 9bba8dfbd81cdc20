import { Context, Duration, type DateTime, type Effect, type Option, Schema } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { CardId } from "./Card.js"

/**
 * Card reveals: `POST /cards/{id}/reveal` issues a single-use link to a page, served by the card processor (the
 * reference server, in the sandbox), that shows the card's full number, expiry and CVC. The platform's own API
 * never carries them. The link's token is 32 random bytes (base64url); only its SHA-256 (hex) is stored.
 */

/** Where the reveal page is served, outside the versioned API (beside `/verify`): `<pagePath>/<token>`. */
export const pagePath = "/cards/reveal"

/** How long a reveal link can be opened after it is issued. */
export const lifetime = Duration.minutes(5)

/** What `POST /cards/{id}/reveal` answers. */
export const CardRevealResponse = Schema.Struct({
  panEmbedUrl: Schema.String,
  expiresAt: Schema.DateTimeUtc
}).annotations({ identifier: "CardReveal" })
export type CardRevealResponse = typeof CardRevealResponse.Type

export interface StoredReveal {
  readonly tokenHash: string
  readonly platformId: Platform.PlatformId
  readonly cardId: CardId
  readonly createdAt: DateTime.Utc
  readonly expiresAt: DateTime.Utc
}

/**
 * Reveal tokens. Their times are the platform's (a sandbox clock moved forward moves them too): the page finds
 * the token's platform (`find`), then consumes it at that platform's now.
 * - `insert` stores a new one.
 * - `find` reads one, used or not, without changing it.
 * - `consume` marks the token used and answers it, in one atomic write, only when it exists, was never used and
 *   `now` is before its `expiresAt`: of concurrent loads of one link exactly one gets the card.
 */
export class CardRevealRepo extends Context.Tag("@payrail/core/CardRevealRepo")<
  CardRevealRepo,
  {
    readonly insert: (reveal: StoredReveal) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly find: (tokenHash: string) => Effect.Effect<Option.Option<StoredReveal>, StoreFailure.StoreFailure>
    readonly consume: (
      tokenHash: string,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<StoredReveal>, StoreFailure.StoreFailure>
  }
>() {}
