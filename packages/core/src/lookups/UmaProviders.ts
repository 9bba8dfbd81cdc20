import { Option, Schema } from "effect"
import { Currency, Page } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/**
 * The UMA providers a platform can pay and be paid by (docs/discoveries.md): the other platforms of this Payrail
 * deployment, in the caller's environment, that serve UMA (have an `umaDomain`). Payrail keeps no per-platform
 * allow list yet, so every provider is allowed (`allowListStatus: true`).
 */

/** The reference API's `UmaProvider`. */
export const UmaProvider = Schema.Struct({
  name: Schema.String,
  supportedRegions: Schema.Array(Schema.String),
  domain: Schema.String,
  supportedCurrencies: Schema.Array(Currency.Currency),
  allowListStatus: Schema.Boolean
}).annotations({ identifier: "UmaProvider" })
export type UmaProvider = typeof UmaProvider.Type

/** The filters of `GET /uma-providers`. `hasBlockedProviders: false` leaves out providers not on the allow list. */
export interface UmaProviderFilter {
  readonly countryCode?: string | undefined
  readonly currencyCode?: string | undefined
  readonly hasBlockedProviders?: boolean | undefined
  readonly sortOrder: "asc" | "desc"
}

/** The provider a platform is, or `None` when it serves no UMA. */
export const ofPlatform = (platform: Platform.Platform): Option.Option<UmaProvider> => {
  const domain = platform.config.umaDomain.trim().toLowerCase()
  if (domain === "") return Option.none()
  return Option.some({
    name: platform.name,
    supportedRegions: [platform.config.region],
    domain,
    supportedCurrencies: platform.config.supportedCurrencies.flatMap((supported) =>
      Option.toArray(Currency.find(supported.currencyCode))
    ),
    allowListStatus: true
  })
}

const keyOf = (platform: Platform.Platform): Page.Cursor => ({ createdAt: platform.createdAt, id: platform.id })

/**
 * One page of the providers among `platforms` for `caller`: other platforms of its environment serving UMA, matching
 * the filters, ordered by when they joined (`sortOrder`, newest first by default), counted.
 */
export const page = (
  caller: Platform.Platform,
  platforms: ReadonlyArray<Platform.Platform>,
  filter: UmaProviderFilter,
  request: Page.PageRequest
): Page.Page<UmaProvider> => {
  const matching = platforms
    .filter((platform) => platform.id !== caller.id && platform.environment === caller.environment)
    .flatMap((platform) => Option.toArray(Option.map(ofPlatform(platform), (provider) => ({ platform, provider }))))
    .filter(
      ({ provider }) =>
        (filter.countryCode === undefined || provider.supportedRegions.includes(filter.countryCode)) &&
        (filter.currencyCode === undefined ||
          provider.supportedCurrencies.some((currency) => currency.code === filter.currencyCode)) &&
        (filter.hasBlockedProviders !== false || provider.allowListStatus)
    )
    .sort((a, b) => {
      const newestFirst = Page.compareNewestFirst(keyOf(a.platform), keyOf(b.platform))
      return filter.sortOrder === "desc" ? newestFirst : -newestFirst
    })
  const after = request.after
  const rest = Option.isNone(after)
    ? matching
    : matching.filter(({ platform }) =>
        filter.sortOrder === "desc"
          ? Page.isAfter(keyOf(platform), after.value)
          : Page.isAfter(after.value, keyOf(platform))
      )
  const paged = Page.fromOverfetch(
    rest.slice(0, request.limit + 1),
    request,
    ({ platform }) => keyOf(platform),
    matching.length
  )
  return { ...paged, data: paged.data.map(({ provider }) => provider) }
}
