import { entropyToMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { Encoding, ExportBundle, P256, type Result } from "@payrail/wallet-protocol"
import { Effect, Layer, Redacted } from "effect"
import { FieldError, Ids, InvalidInput, WalletKeys } from "@payrail/core"
import * as KeyCustody from "./KeyCustody.js"
import * as SessionKeys from "./SessionKeys.js"

/** The wire form of a P-256 public key: `02`/`03` and 64 hex digits, or `04` and 128, either case. */
export const PUBLIC_KEY_PATTERN = "^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$"
const publicKeyPattern = new RegExp(PUBLIC_KEY_PATTERN)

/** Bytes of entropy of a wallet secret: 128 bits, a 12-word BIP-39 mnemonic. */
export const SECRET_ENTROPY_LENGTH = 16

/** Options of {@link layer}: the service signer key (32-byte P-256 hex) that signs export bundles. */
export interface Options {
  readonly signerPrivateKey: Redacted.Redacted<string>
}

const invalidKey = (field: string, message: string) =>
  InvalidInput.InvalidInput.withErrors(
    [new FieldError.FieldError({ field, constraint: { pattern: PUBLIC_KEY_PATTERN }, message })],
    `${field} must be a P-256 public key in SEC1 hex`
  )

const orDie = <A>(result: Result.Result<A>, what: string): Effect.Effect<A> =>
  result.ok ? Effect.succeed(result.value) : Effect.dieMessage(`${what}: ${result.error.code}`)

/**
 * Core's `WalletKeys`. `parsePublicKey` accepts the pattern above when the point is on the curve and returns it
 * lowercase compressed, noting whether it came uncompressed; anything else fails with `InvalidInput` naming the
 * field. `sealSessionKey` is {@link SessionKeys}' `issue`. A wallet secret is a 12-word English BIP-39 mnemonic from
 * the `Ids` service's bytes, kept only sealed by {@link KeyCustody} (purpose `wallet-secret`); its export is the signed
 * export bundle of `@payrail/wallet-protocol`'s `ExportBundle`, sealed to the requester's key and signed by the
 * service signer key (the same key as OTP target bundles). Keys and sealed secrets arriving here were validated by
 * the caller, so a bad one is a defect.
 */
export const layer = (
  options: Options
): Layer.Layer<WalletKeys.WalletKeys, never, SessionKeys.SessionKeys | KeyCustody.KeyCustody | Ids.Ids> =>
  Layer.effect(
    WalletKeys.WalletKeys,
    Effect.gen(function* () {
      const sessionKeys = yield* SessionKeys.SessionKeys
      const custody = yield* KeyCustody.KeyCustody
      const ids = yield* Ids.Ids
      const signerPrivateKey = yield* orDie(
        P256.parsePrivateKey(Redacted.value(options.signerPrivateKey), "signerPrivateKey"),
        "invalid wallet signer key"
      )

      const parsePublicKey = Effect.fn("WalletKeys.parsePublicKey")(function* (hex: string, field: string) {
        if (!publicKeyPattern.test(hex)) {
          return yield* invalidKey(field, "must be 02 or 03 and 64 hex digits, or 04 and 128 hex digits")
        }
        const parsed = P256.parsePublicKey(hex, field)
        if (!parsed.ok) return yield* invalidKey(field, "is not a point on the P-256 curve")
        return { compressed: parsed.value.compressedHex, wasUncompressed: hex.length === 2 * P256.UNCOMPRESSED_LENGTH }
      })

      const sealSessionKey = Effect.fn("WalletKeys.sealSessionKey")((clientPublicKey: string) =>
        sessionKeys.issue({ clientPublicKey }).pipe(
          Effect.map((sealed) => ({
            publicKey: sealed.publicKeyCompressed,
            encryptedSessionSigningKey: sealed.encryptedSessionSigningKey
          })),
          Effect.orDie
        )
      )

      const createWalletSecret = ids.randomBytes(SECRET_ENTROPY_LENGTH).pipe(
        Effect.map((entropy) => Encoding.toUtf8(entropyToMnemonic(entropy, wordlist))),
        Effect.flatMap((mnemonic) => custody.seal("wallet-secret", mnemonic)),
        Effect.withSpan("WalletKeys.createWalletSecret")
      )

      const exportWalletSecret = Effect.fn("WalletKeys.exportWalletSecret")(function* (input: {
        readonly sealedSecret: string
        readonly recipientPublicKey: string
        readonly organizationId: string
      }) {
        const recipientPublicKey = yield* orDie(
          P256.parsePublicKey(input.recipientPublicKey, "recipientPublicKey"),
          "an export recipient key is not a P-256 key"
        )
        const mnemonic = yield* Effect.orDie(custody.open("wallet-secret", input.sealedSecret))
        const bundle = yield* Effect.promise(() =>
          ExportBundle.seal({
            plaintext: mnemonic,
            recipientPublicKey,
            organizationId: input.organizationId,
            signerPrivateKey
          })
        )
        mnemonic.fill(0)
        return yield* orDie(bundle, "the export bundle could not be sealed")
      })

      return WalletKeys.WalletKeys.of({ parsePublicKey, sealSessionKey, createWalletSecret, exportWalletSecret })
    })
  )
