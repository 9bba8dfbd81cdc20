import { timingSafeEqual } from "node:crypto"
import { Encoding, Hpke, OtpBundle, P256, Result, TargetBundle } from "@payrail/wallet-protocol"
import { Config, type ConfigError, Context, Effect, Layer, Redacted, Schema } from "effect"
import { Ids } from "@payrail/core"

/**
 * An `encryptedOtpBundle` was refused; `check` names the step: `format` (not the JSON/hex/key layout),
 * `decryption` (the AEAD tag did not verify: another target key, altered bytes), `plaintext` (not
 * `{"otp_code","public_key"}` with a P-256 key), or `otp` (decrypted fine, wrong code). Maps to 401.
 */
export class OtpBundleInvalid extends Schema.TaggedError<OtpBundleInvalid>()("OtpBundleInvalid", {
  check: Schema.Literal("format", "decryption", "plaintext", "otp"),
  reason: Schema.String
}) {}

/** A fresh OTP target: its private key (store it with the credential, never send it) and the signed bundle. */
export interface IssuedTarget {
  readonly targetPrivateKey: Redacted.Redacted<string>
  /** Uncompressed lowercase hex, as `targetPublic` inside the bundle. */
  readonly targetPublicKey: string
  /** The `otpEncryptionTargetBundle` JSON text to return to the client. */
  readonly otpEncryptionTargetBundle: string
}

/** A decrypted OTP submission. The TEK key becomes the session key of an OTP session. */
export interface OpenedOtp {
  readonly otpCode: string
  /** `public_key` exactly as the device sent it (either form). */
  readonly publicKey: string
  readonly publicKeyCompressed: string
  readonly publicKeyUncompressed: string
}

/** Options of {@link layer}: the server's bundle signing key (32-byte hex). */
export interface Options {
  readonly signerPrivateKey: Redacted.Redacted<string>
}

/**
 * Issues OTP target bundles and opens the `encryptedOtpBundle`s encrypted to them. Each issued target has its own
 * key pair; the bundle is signed by one server signer key whose public key clients may pin. Stateless: the caller
 * stores each target private key with its credential challenge. Safe to call concurrently.
 */
export interface OtpTargetsService {
  /** The signer public key as 130-character lowercase hex: the exact `dangerouslyOverrideSignerPublicKey` value. */
  readonly signerPublicKey: string
  readonly issue: Effect.Effect<IssuedTarget>
  /** Decrypts and validates a submission. A stored target key that is not a P-256 key is a defect. */
  readonly open: (input: {
    readonly encryptedOtpBundle: string
    readonly targetPrivateKey: Redacted.Redacted<string>
  }) => Effect.Effect<OpenedOtp, OtpBundleInvalid>
  /** {@link open}, then a constant-time comparison with the expected code (`check: "otp"` on mismatch). */
  readonly verify: (input: {
    readonly encryptedOtpBundle: string
    readonly targetPrivateKey: Redacted.Redacted<string>
    readonly expectedOtpCode: string
  }) => Effect.Effect<OpenedOtp, OtpBundleInvalid>
}

/** Tag of the {@link OtpTargetsService}. */
export class OtpTargets extends Context.Tag("@payrail/wallet-auth/OtpTargets")<OtpTargets, OtpTargetsService>() {}

const invalid = (check: OtpBundleInvalid["check"], reason: string) =>
  Effect.fail(new OtpBundleInvalid({ check, reason }))

const sameCode = (a: string, b: string): boolean => {
  const left = Encoding.toUtf8(a)
  const right = Encoding.toUtf8(b)
  // Lengths are compared first because timingSafeEqual requires equal lengths; the length of a code is not secret.
  return left.length === right.length && timingSafeEqual(left, right)
}

const make = (signerPrivateKey: Uint8Array) =>
  Effect.gen(function* () {
    const random = yield* Ids.Ids
    const signerPublicKey = P256.publicKeyOf(signerPrivateKey).uncompressedHex

    const issue = Effect.map(random.randomBytes(P256.SEED_LENGTH), (seed): IssuedTarget => {
      const targetPrivateKey = P256.privateKeyFromSeed(seed)
      const targetPublicKey = P256.publicKeyOf(targetPrivateKey)
      const bundle = TargetBundle.createOtpTarget({ targetPublicKey, signerPrivateKey })
      return {
        targetPrivateKey: Redacted.make(Encoding.toHex(targetPrivateKey)),
        targetPublicKey: targetPublicKey.uncompressedHex,
        otpEncryptionTargetBundle: Result.getOrThrow(bundle)
      }
    })

    const open: OtpTargetsService["open"] = (input) =>
      Effect.gen(function* () {
        const bundle = OtpBundle.decode(input.encryptedOtpBundle)
        if (!bundle.ok) return yield* invalid("format", bundle.error.message)
        const recipient = yield* Effect.promise(() => Hpke.importRecipientKey(Redacted.value(input.targetPrivateKey)))
        if (!recipient.ok) return yield* Effect.dieMessage("a stored OTP target private key is not a P-256 key")
        const plaintext = yield* Effect.promise(() =>
          Hpke.open({
            enc: bundle.value.encappedPublic,
            ciphertext: bundle.value.ciphertext,
            recipient: recipient.value
          })
        )
        if (!plaintext.ok) {
          return yield* invalid(
            plaintext.error.code === "AeadFailure" ? "decryption" : "format",
            plaintext.error.message
          )
        }
        const opened = OtpBundle.decodePlaintext(plaintext.value)
        if (!opened.ok) return yield* invalid("plaintext", opened.error.message)
        return {
          otpCode: opened.value.otpCode,
          publicKey: opened.value.publicKeyHex,
          publicKeyCompressed: opened.value.publicKey.compressedHex,
          publicKeyUncompressed: opened.value.publicKey.uncompressedHex
        }
      })

    const verify: OtpTargetsService["verify"] = (input) =>
      Effect.flatMap(open(input), (opened) =>
        sameCode(opened.otpCode, input.expectedOtpCode)
          ? Effect.succeed(opened)
          : invalid("otp", "the OTP code does not match")
      )

    return OtpTargets.of({ signerPublicKey, issue, open, verify })
  })

const parseSigner = (signerPrivateKey: Redacted.Redacted<string>) =>
  P256.parsePrivateKey(Redacted.value(signerPrivateKey), "signerPrivateKey")

/** The service with the given signer key; a signer key that is not a P-256 private key is a defect. */
export const layer = (options: Options): Layer.Layer<OtpTargets, never, Ids.Ids> =>
  Layer.effect(
    OtpTargets,
    Effect.suspend(() => {
      const signer = parseSigner(options.signerPrivateKey)
      return signer.ok ? make(signer.value) : Effect.dieMessage(`invalid OTP signer key: ${signer.error.code}`)
    })
  )

/** The service with a signer key read from configuration; a malformed key is a `ConfigError`. */
export const layerConfig = (
  signerPrivateKey: Config.Config<Redacted.Redacted<string>>
): Layer.Layer<OtpTargets, ConfigError.ConfigError, Ids.Ids> =>
  Layer.unwrapEffect(
    Effect.map(
      signerPrivateKey.pipe(
        Config.validate({
          message: "must be a 32-byte P-256 private key in hex",
          validation: (key) => parseSigner(key).ok
        })
      ),
      (key) => layer({ signerPrivateKey: key })
    )
  )
