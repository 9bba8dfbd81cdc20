import type { ExternalAccountRepo } from "@payrail/core"

/** What the columns of ownership and counting are derived from: an external account, decoded or encoded. */
export interface Owned {
  readonly id: string
  readonly customerId?: string | undefined
}

/** The partial unique index on (platform, owner, account type, identifier) of live external accounts. */
export const identifierKey = "external_accounts_identifier_key"

/** The partial unique index allowing one live default UMA deposit account per owner: the last guard. */
export const defaultKey = "external_accounts_default_key"

/**
 * How many rows the platform-wide counters of one (platform, owner kind, currency) are spread over. Each insert or
 * delete updates one of them, so concurrent writers rarely wait on one another; a count sums at most this many.
 */
export const countSlots = 16

/** The first key of the advisory locks that serialise default changes per owner (the second is the owner's hash). */
export const defaultLockClass = 1_162_891_348

/** Who owns an account: `"customers"` for a customer's account, `"platform"` for the platform's own. */
export const ownerOf = (account: Owned): "customers" | "platform" =>
  account.customerId === undefined ? "platform" : "customers"

/** The owner within the platform: the customer id, or `"platform"` for the platform's own accounts. */
export const ownerKeyOf = (account: Owned): string => account.customerId ?? "platform"

/** The counter slot of an account: the last hex digit of its random uuid, so slots fill evenly. */
export const countSlotOf = (id: string): number => (Number.parseInt(id.slice(-1), 16) || 0) % countSlots

/**
 * The counter rows an account adds to (or removes from): the owner kind's slot and, for a customer's account, the
 * customer's own row (slot 0). A count then reads the rows of one scope: `"customers"`, `"platform"` or a
 * customer id, optionally of one currency.
 */
export const countScopesOf = (account: Owned): ReadonlyArray<{ readonly scope: string; readonly slot: number }> => {
  const kind = { scope: ownerOf(account), slot: countSlotOf(account.id) }
  return account.customerId === undefined ? [kind] : [kind, { scope: account.customerId, slot: 0 }]
}

/** The counter scope answering `filter`, or `undefined` when the filter matches nothing (a platform customer). */
export const countScopeOf = (filter: ExternalAccountRepo.ExternalAccountFilter): string | undefined =>
  filter.customerId === undefined ? filter.owner : filter.owner === "customers" ? filter.customerId : undefined

/** The text whose hash keys the owner's advisory lock. */
export const lockKeyOf = (platformId: string, account: Owned): string => `${platformId}/${ownerKeyOf(account)}`
