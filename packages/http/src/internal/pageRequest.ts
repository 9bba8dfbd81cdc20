import { Effect, Option } from "effect"
import { type InvalidInput, Page } from "@payrail/core"

/** The page a list request asks for: its `limit` (default 20) and its decoded `cursor`, if any. */
export const pageRequest = (
  limit: number | undefined,
  cursor: string | undefined
): Effect.Effect<Page.PageRequest, InvalidInput.InvalidInput> =>
  Effect.map(
    cursor === undefined
      ? Effect.succeed(Option.none<Page.Cursor>())
      : Effect.map(Page.decodeCursor(cursor), Option.some),
    (after) => ({ limit: limit ?? Page.defaultLimit, after })
  )
