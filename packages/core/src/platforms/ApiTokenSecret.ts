import { Effect, Redacted } from "effect"
import type { Environment } from "./Platform.js"
import { Ids, Sha256 } from "../kernel/index.js"

/** A freshly issued credential pair. The secret exists in clear only here, to be shown to its owner once. */
export interface IssuedCredentials {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly secretHash: string
}

/** SHA-256 of the secret as lowercase hex: the only form in which secrets are stored. */
export const hash = (secret: Redacted.Redacted<string>): Effect.Effect<string> => Sha256.hex(Redacted.value(secret))

/** Compares two equally long strings (digests) in time that never depends on where they first differ. */
export const constantTimeEquals = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index)
  return difference === 0
}

/** Whether `secret` is the one whose hash is `secretHash`, compared in constant time. */
export const verify = (secret: Redacted.Redacted<string>, secretHash: string): Effect.Effect<boolean> =>
  Effect.map(hash(secret), (candidate) => constantTimeEquals(candidate, secretHash))

/**
 * Issues a client id (`pk_` + 24 base64url characters) and a secret of 256 random bits (`sk_sandbox_…` or
 * `sk_live_…`, so leaked secrets are recognisable by scanners). Neither contains `:`, so Basic auth can carry them.
 */
export const issue = (environment: Environment): Effect.Effect<IssuedCredentials, never, Ids.Ids> =>
  Effect.gen(function* () {
    const ids = yield* Ids.Ids
    const clientId = `pk_${Ids.base64url(yield* ids.randomBytes(18))}`
    const prefix = environment === "SANDBOX" ? "sk_sandbox_" : "sk_live_"
    const clientSecret = Redacted.make(`${prefix}${Ids.base64url(yield* ids.randomBytes(32))}`)
    return { clientId, clientSecret, secretHash: yield* hash(clientSecret) }
  })
