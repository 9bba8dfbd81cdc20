import { Effect, Option, Schema } from "effect"
import { UmaAddress } from "../customers/index.js"
import type { Platform } from "../platforms/index.js"
import { InvalidUmaAddress } from "./UmaErrors.js"

const decode = Schema.decodeUnknownOption(UmaAddress.UmaAddress)

/**
 * The UMA address a caller wrote, in its one stored form: letters lowercased (UMA addresses are case-insensitive)
 * and a leading `$` added when it was left out (`alice@example.com` is `$alice@example.com`). `None` when the result
 * is still not `$<username>@<domain>` (see `UmaAddress`). Path parameters arrive URL-decoded (`%24` is `$`).
 */
export const normalize = (written: string): Option.Option<UmaAddress.UmaAddress> => {
  const lower = written.toLowerCase()
  return decode(lower.startsWith("$") ? lower : `$${lower}`)
}

/** `normalize`, failing with `INVALID_UMA_ADDRESS` that names `field` when the address is malformed. */
export const parse = (field: string, written: string): Effect.Effect<UmaAddress.UmaAddress, InvalidUmaAddress> =>
  Option.match(normalize(written), {
    onNone: () => Effect.fail(InvalidUmaAddress.of(field)),
    onSome: Effect.succeed
  })

/** The part of a well-formed address after `@`. */
export const domainOf = (address: UmaAddress.UmaAddress): string => address.slice(address.indexOf("@") + 1)

/** The part of a well-formed address between `$` and `@`. */
export const usernameOf = (address: UmaAddress.UmaAddress): string => address.slice(1, address.indexOf("@"))

/** Whether the address is on the platform's own UMA domain (compared case-insensitively), so one of its customers'. */
export const isOwnDomain = (platform: Platform.Platform, address: UmaAddress.UmaAddress): boolean =>
  domainOf(address) === platform.config.umaDomain.toLowerCase()
