import { Encoding, P256 } from "@payrail/wallet-protocol"
import { Config, type ConfigError, Context, Effect, Layer, Option, Redacted } from "effect"
import {
  Ids,
  type OidcTokens,
  type OtpChallenges,
  type Passkeys,
  type WalletKeys,
  type WalletSignatures
} from "@payrail/core"
import * as KeyCustody from "./KeyCustody.js"
import * as OidcTokensAdapter from "./OidcTokensAdapter.js"
import * as OidcVerifier from "./OidcVerifier.js"
import * as OtpChallengesAdapter from "./OtpChallengesAdapter.js"
import * as OtpTargets from "./OtpTargets.js"
import * as PasskeysAdapter from "./PasskeysAdapter.js"
import * as PasskeyVerifier from "./PasskeyVerifier.js"
import * as SessionKeys from "./SessionKeys.js"
import * as StampVerifier from "./StampVerifier.js"
import * as WalletKeysAdapter from "./WalletKeysAdapter.js"
import * as WalletSignaturesAdapter from "./WalletSignaturesAdapter.js"

/** The five wallet ports of `@payrail/core` this package implements. */
export type Ports =
  | WalletSignatures.WalletSignatures
  | WalletKeys.WalletKeys
  | OtpChallenges.OtpChallenges
  | OidcTokens.OidcTokens
  | Passkeys.Passkeys

/**
 * The service signer's public key, 130 lowercase hex digits (uncompressed SEC1): what `enclaveQuorumPublic` of every
 * OTP target bundle and export bundle is, and the exact value clients pin (`dangerouslyOverrideSignerPublicKey` in
 * Turnkey's helpers, `signerPublicKey` in `@payrail/signer`). Public; safe to publish.
 */
export class SignerPublicKey extends Context.Tag("@payrail/wallet-auth/SignerPublicKey")<
  SignerPublicKey,
  { readonly uncompressedHex: string }
>() {}

/** Options of {@link layer}: both keys as hex, never logged. */
export interface Options {
  /** 32 bytes (64 hex digits): the key wallet secrets and OTP target keys are sealed under. */
  readonly masterKey: Redacted.Redacted<string>
  /** Earlier master keys, still accepted when opening what they sealed. */
  readonly retiredMasterKeys?: ReadonlyArray<Redacted.Redacted<string>>
  /** A P-256 private key (64 hex digits): signs OTP target bundles and export bundles. */
  readonly signerPrivateKey: Redacted.Redacted<string>
  readonly oidc?: OidcVerifier.Options
  readonly passkeys?: PasskeyVerifier.Options
}

/** The signer's public key (uncompressed lowercase hex), or none when the key is not a P-256 private key. */
export const signerPublicKeyOf = (signerPrivateKey: Redacted.Redacted<string>): Option.Option<string> => {
  const parsed = P256.parsePrivateKey(Redacted.value(signerPrivateKey), "signerPrivateKey")
  return parsed.ok ? Option.some(P256.publicKeyOf(parsed.value).uncompressedHex) : Option.none()
}

/**
 * Every wallet port on the services of this package, plus {@link SignerPublicKey}: stamps verified natively
 * (`node:crypto`), OTP targets and export bundles signed by `signerPrivateKey`, wallet secrets and OTP target keys
 * sealed under `masterKey` ({@link KeyCustody}), OIDC and passkey checks with the issuers and relying party each call
 * names. Randomness comes from the `Ids` service. Keys that do not parse are a defect when the layer is built.
 */
export const layer = (options: Options): Layer.Layer<Ports | SignerPublicKey, never, Ids.Ids> => {
  const services = Layer.mergeAll(
    StampVerifier.layer,
    OtpTargets.layer({ signerPrivateKey: options.signerPrivateKey }),
    SessionKeys.layer,
    KeyCustody.layer({
      masterKey: options.masterKey,
      ...(options.retiredMasterKeys === undefined ? {} : { retiredMasterKeys: options.retiredMasterKeys })
    }),
    OidcVerifier.layer(options.oidc),
    PasskeyVerifier.layer(options.passkeys)
  )
  const ports = Layer.mergeAll(
    WalletSignaturesAdapter.layer,
    WalletKeysAdapter.layer({ signerPrivateKey: options.signerPrivateKey }),
    OtpChallengesAdapter.layer,
    OidcTokensAdapter.layer,
    PasskeysAdapter.layer
  )
  const signer = Layer.effect(
    SignerPublicKey,
    Option.match(signerPublicKeyOf(options.signerPrivateKey), {
      onNone: () => Effect.dieMessage("the wallet signer key is not a P-256 private key"),
      onSome: (uncompressedHex) => Effect.succeed({ uncompressedHex })
    })
  )
  return Layer.merge(Layer.provide(ports, services), signer)
}

/** The environment variable of the master key (64 hex digits). */
export const MASTER_KEY_VARIABLE = "PAYRAIL_WALLET_MASTER_KEY"
/** The environment variable of the signer key (64 hex digits, a P-256 private key). */
export const SIGNER_KEY_VARIABLE = "PAYRAIL_WALLET_SIGNER_KEY"

/**
 * {@link layer} with `PAYRAIL_WALLET_MASTER_KEY` and `PAYRAIL_WALLET_SIGNER_KEY` read as redacted configuration; a
 * missing or malformed key is a `ConfigError` that names the variable, never its value.
 */
export const layerConfig: Layer.Layer<Ports | SignerPublicKey, ConfigError.ConfigError, Ids.Ids> = Layer.unwrapEffect(
  Effect.map(
    Config.all({
      masterKey: Config.redacted(MASTER_KEY_VARIABLE).pipe(
        Config.validate({
          message: `${MASTER_KEY_VARIABLE} must be 32 bytes as 64 hex digits`,
          validation: (key) => Option.isSome(KeyCustody.parseMasterKey(key))
        })
      ),
      signerPrivateKey: Config.redacted(SIGNER_KEY_VARIABLE).pipe(
        Config.validate({
          message: `${SIGNER_KEY_VARIABLE} must be a P-256 private key as 64 hex digits`,
          validation: (key) => Option.isSome(signerPublicKeyOf(key))
        })
      )
    }),
    layer
  )
)

/** Fresh keys for {@link layer}, drawn from `Ids`: a master key of 32 random bytes and a signer key from a 48-byte seed. */
export const generateKeys: Effect.Effect<Pick<Options, "masterKey" | "signerPrivateKey">, never, Ids.Ids> = Effect.gen(
  function* () {
    const ids = yield* Ids.Ids
    return {
      masterKey: Redacted.make(Encoding.toHex(yield* ids.randomBytes(32))),
      signerPrivateKey: Redacted.make(Encoding.toHex(P256.privateKeyFromSeed(yield* ids.randomBytes(48))))
    }
  }
)

/**
 * {@link layer} with keys drawn at start-up ({@link generateKeys}): for tests, demos and throwaway (memory) storage
 * only. Whatever it seals can never be opened once the process ends, and clients cannot pin a signer key that changes
 * on every start; real deployments use {@link layerConfig}.
 */
export const layerEphemeral: Layer.Layer<Ports | SignerPublicKey, never, Ids.Ids> = Layer.unwrapEffect(
  Effect.map(generateKeys, layer)
)
