import { type DateTime, Effect, Option } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import {
  ProviderAccountInvalid,
  ProviderAccountNotFound,
  ProviderAccountRevoked,
  ProviderAccountSelectionRequired
} from "./StablecoinErrors.js"
import type { Verified } from "./StablecoinProvider.js"
import {
  StablecoinProviderAccount,
  StablecoinProviderAccountId,
  type StablecoinProviderName,
  type StoredProviderAccount
} from "./StablecoinProviderAccount.js"
import { StablecoinRepo } from "./StablecoinRepo.js"

/**
 * Which provider account link a registration, a mint or a burn goes through (docs/stablecoins.md): only an `ACTIVE`
 * link of the caller's platform.
 */

/** Why a link cannot be used. */
export type LinkFailure = ProviderAccountNotFound | ProviderAccountInvalid | ProviderAccountRevoked

/** The platform's link `id`; `ProviderAccountNotFound` for another platform's or an unknown one. */
export const find = (
  platform: Platform.Platform,
  id: StablecoinProviderAccountId
): Effect.Effect<StoredProviderAccount, ProviderAccountNotFound | StoreFailure.StoreFailure, StablecoinRepo> =>
  Effect.flatMap(
    Effect.flatMap(StablecoinRepo, (repo) => repo.findProviderAccount(platform.id, id)),
    Option.match({ onNone: () => Effect.fail(ProviderAccountNotFound.of(id)), onSome: Effect.succeed })
  )

/** The link if it is `ACTIVE`; `ProviderAccountRevoked` or `ProviderAccountInvalid` otherwise. */
export const usable = (stored: StoredProviderAccount): Effect.Effect<StoredProviderAccount, LinkFailure> => {
  const { id, status } = stored.account
  return status === "ACTIVE"
    ? Effect.succeed(stored)
    : status === "REVOKED"
      ? Effect.fail(ProviderAccountRevoked.of(id))
      : Effect.fail(ProviderAccountInvalid.of(id))
}

/**
 * The link a registration names, if `ACTIVE`; without one, the platform's only `ACTIVE` link:
 * `ProviderAccountNotFound` with none, `ProviderAccountSelectionRequired` with several.
 */
export const choose = (
  platform: Platform.Platform,
  requested: StablecoinProviderAccountId | undefined
): Effect.Effect<
  StoredProviderAccount,
  LinkFailure | ProviderAccountSelectionRequired | StoreFailure.StoreFailure,
  StablecoinRepo
> =>
  Effect.gen(function* () {
    if (requested !== undefined) return yield* usable(yield* find(platform, requested))
    const active = yield* (yield* StablecoinRepo).listProviderAccounts(
      platform.id,
      { status: "ACTIVE" },
      { limit: 2, after: Option.none() }
    )
    const [only, second] = active.data
    if (only === undefined) return yield* ProviderAccountNotFound.of()
    if (second !== undefined) return yield* ProviderAccountSelectionRequired.of()
    return yield* find(platform, only.id)
  })

/**
 * The link the provider's verdict makes, in the platform's environment; `lastVerifiedAt` only when the provider
 * found it `ACTIVE`. The credential reference stays with the stored link, never in the link itself.
 */
export const linked = (
  platform: Platform.Platform,
  provider: StablecoinProviderName,
  verified: Verified,
  uuid: string,
  now: DateTime.Utc
): StoredProviderAccount => ({
  platformId: platform.id,
  credentialRef: verified.credentialRef,
  account: new StablecoinProviderAccount({
    id: StablecoinProviderAccountId.make(`StablecoinProviderAccount:${uuid}`),
    provider,
    providerAccountId: verified.providerAccountId,
    providerEnvironment: platform.environment,
    status: verified.status,
    ...(verified.status === "ACTIVE" ? { lastVerifiedAt: now } : {}),
    createdAt: now,
    updatedAt: now
  })
})
