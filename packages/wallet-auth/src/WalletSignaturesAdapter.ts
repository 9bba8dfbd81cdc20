import { Effect, Layer } from "effect"
import { WalletErrors, WalletSignatures } from "@payrail/core"
import * as StampVerifier from "./StampVerifier.js"

/**
 * Core's `WalletSignatures` on {@link StampVerifier}: the stamp's key is compared as a point with the allowed keys,
 * the signature verified over the exact payload bytes (high-S accepted). A stamp that does not parse fails with
 * `WalletSignatureMalformed` naming the part; a key that is not allowed with `WalletSignatureInvalid` check
 * `session_key`, a signature that does not verify with check `signature`. Succeeds with the allowed key as given.
 */
export const layer: Layer.Layer<WalletSignatures.WalletSignatures, never, StampVerifier.StampVerifier> = Layer.effect(
  WalletSignatures.WalletSignatures,
  Effect.map(StampVerifier.StampVerifier, (stamps) => ({
    verify: Effect.fn("WalletSignatures.verify")((input: WalletSignatures.VerifyInput) =>
      stamps
        .verify({
          stamp: input.stamp,
          payloadToSign: input.payloadToSign,
          sessionPublicKeys: input.allowedPublicKeys
        })
        .pipe(
          Effect.map((verified) => ({ publicKey: verified.sessionPublicKey })),
          Effect.mapError((error) =>
            error._tag === "WalletSignatureMalformed"
              ? WalletErrors.WalletSignatureMalformed.of(error.check, error.reason)
              : WalletErrors.WalletSignatureInvalid.of(
                  error.check === "sessionKey" ? "session_key" : "signature",
                  error.check === "sessionKey"
                    ? "The stamp's key is not the key of an active session allowed to sign this request"
                    : "The stamp's signature does not verify over payloadToSign"
                )
          )
        )
    )
  }))
)
