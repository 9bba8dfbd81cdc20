import { Encoding } from "@payrail/wallet-protocol"
import { Effect, Layer, Redacted } from "effect"
import { Ids, OtpChallenges, WalletErrors } from "@payrail/core"
import * as KeyCustody from "./KeyCustody.js"
import * as OtpCodes from "./OtpCodes.js"
import * as OtpTargets from "./OtpTargets.js"

/**
 * Core's `OtpChallenges` on {@link OtpTargets}. `issue` draws the code with {@link OtpCodes.generate} (or takes
 * `fixedCode` verbatim), digests it with {@link OtpCodes.digest}, issues a fresh HPKE target and seals the target's
 * private key with {@link KeyCustody} (purpose `otp-target-key`); neither the code nor the key is kept. `open`
 * unseals the key, opens the `encryptedOtpBundle` (also double-JSON-encoded, as the Grid CLI prints it) and returns
 * the digest of the code inside and the device's TEK as lowercase compressed hex, whichever form it was sent in. A
 * bundle that does not open fails with `WalletAuthFailed` check `otp_bundle`; a sealed key that does not unseal was
 * corrupted in storage (or sealed under a master key no longer configured), a defect.
 */
export const layer: Layer.Layer<
  OtpChallenges.OtpChallenges,
  never,
  OtpTargets.OtpTargets | KeyCustody.KeyCustody | Ids.Ids
> = Layer.effect(
  OtpChallenges.OtpChallenges,
  Effect.gen(function* () {
    const targets = yield* OtpTargets.OtpTargets
    const custody = yield* KeyCustody.KeyCustody
    const ids = yield* Ids.Ids

    const issue = Effect.fn("OtpChallenges.issue")(function* (options: {
      readonly length: number
      readonly alphanumeric: boolean
      readonly fixedCode?: string
    }) {
      const code = options.fixedCode ?? (yield* Effect.provideService(OtpCodes.generate(options), Ids.Ids, ids))
      const target = yield* targets.issue
      const targetKey = Encoding.fromHex(Redacted.value(target.targetPrivateKey))
      if (!targetKey.ok) return yield* Effect.dieMessage("an issued OTP target key is not hex")
      const sealedTargetKey = yield* custody.seal("otp-target-key", targetKey.value)
      targetKey.value.fill(0)
      return {
        code: Redacted.make(code),
        codeDigest: OtpCodes.digest(code),
        otpEncryptionTargetBundle: target.otpEncryptionTargetBundle,
        sealedTargetKey
      }
    })

    const open = Effect.fn("OtpChallenges.open")(function* (input: {
      readonly encryptedOtpBundle: string
      readonly sealedTargetKey: string
    }) {
      const targetKey = yield* Effect.orDie(custody.open("otp-target-key", input.sealedTargetKey))
      const opened = yield* targets
        .open({
          encryptedOtpBundle: input.encryptedOtpBundle,
          targetPrivateKey: Redacted.make(Encoding.toHex(targetKey))
        })
        .pipe(
          Effect.mapError((error) =>
            WalletErrors.WalletAuthFailed.of(
              "otp_bundle",
              `The encryptedOtpBundle cannot be opened for this challenge (${error.check}): ${error.reason}`
            )
          )
        )
      targetKey.fill(0)
      return { codeDigest: OtpCodes.digest(opened.otpCode), publicKey: opened.publicKeyCompressed }
    })

    return OtpChallenges.OtpChallenges.of({ issue, open })
  })
)
