import { DateTime, Effect } from "effect"
import type { AuthMethod } from "../accounts/index.js"
import { Ids, ResourceId } from "../kernel/index.js"
import { AuthSession, AuthSessionId, defaultLifetimeSeconds } from "./AuthSession.js"
import { WalletKeys } from "./WalletKeys.js"

/** A new session, and the sealed signing key to hand the client when the service generated it. */
export interface Grant {
  readonly session: AuthSession
  readonly encryptedSessionSigningKey?: string
}

/** How the session's key is chosen. */
export type SessionKey =
  /** The client holds the key already (an OTP login's TEK): lowercase compressed hex. */
  | { readonly kind: "held"; readonly publicKey: string }
  /**
   * The client's `clientPublicKey` as sent: compressed selects the client-held-key model (it is the session key);
   * uncompressed the legacy flow, in which the service generates a session key and seals it to the client.
   */
  | { readonly kind: "client"; readonly clientPublicKey: string }

/**
 * Makes (does not store) a session of `method`'s wallet for 15 minutes from `Clock`, with the key chosen as
 * {@link SessionKey} says. The private half of a generated key exists only sealed to the client.
 */
export const granter = Effect.map(Effect.all([WalletKeys, Ids.Ids]), ([keys, ids]) =>
  Effect.fn("SessionGrants.grant")(function* (method: AuthMethod.AuthMethod, key: SessionKey) {
    const now = yield* DateTime.now
    const chosen: { readonly publicKey: string; readonly encryptedSessionSigningKey?: string } =
      key.kind === "held"
        ? { publicKey: key.publicKey }
        : yield* Effect.flatMap(keys.parsePublicKey(key.clientPublicKey, "clientPublicKey"), (parsed) =>
            parsed.wasUncompressed
              ? keys.sealSessionKey(key.clientPublicKey)
              : Effect.succeed({ publicKey: parsed.compressed })
          )
    const session = new AuthSession({
      id: AuthSessionId.make(ResourceId.format("Session", yield* ids.uuid)),
      accountId: method.accountId,
      type: method.type,
      authMethodId: method.id,
      nickname: method.nickname,
      ...(method.credentialId === undefined ? {} : { credentialId: method.credentialId }),
      publicKey: chosen.publicKey,
      createdAt: now,
      updatedAt: now,
      expiresAt: DateTime.add(now, { seconds: defaultLifetimeSeconds })
    })
    const grant: Grant =
      chosen.encryptedSessionSigningKey === undefined
        ? { session }
        : { session, encryptedSessionSigningKey: chosen.encryptedSessionSigningKey }
    return grant
  })
)
