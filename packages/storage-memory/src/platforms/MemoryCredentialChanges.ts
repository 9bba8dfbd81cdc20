import { Context, Effect, Layer, Option } from "effect"
import { CredentialChanges } from "@payrail/core"

/** The memory store's change counter for tokens and platforms: bumped by every write that could revoke access. */
export class CredentialVersion extends Context.Tag("@payrail/storage-memory/CredentialVersion")<
  CredentialVersion,
  { readonly current: () => number; readonly bump: () => void }
>() {}

export const versionLayer: Layer.Layer<CredentialVersion> = Layer.sync(CredentialVersion, () => {
  let version = 0
  return { current: () => version, bump: () => void version++ }
})

/**
 * `CredentialChanges` in memory: the store lives in this process, so every change is seen the moment it is made
 * (a write that is rolled back has still bumped the counter, which only costs a cache miss).
 */
export const layer: Layer.Layer<CredentialChanges.CredentialChanges, never, CredentialVersion> = Layer.effect(
  CredentialChanges.CredentialChanges,
  Effect.map(CredentialVersion, (version) => ({ version: Effect.sync(() => Option.some(version.current())) }))
)
