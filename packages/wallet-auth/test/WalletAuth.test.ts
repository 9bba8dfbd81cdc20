import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Option, Redacted } from "effect"
import { Ids, OidcTokens, OtpChallenges, Passkeys, WalletKeys, WalletSignatures } from "@payrail/core"
import { Signer } from "@payrail/signer"
import { WalletAuth } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const vector = vectors.otpBundles[0]!
const MASTER_KEY = "5a".repeat(32)
const env = (values: Readonly<Record<string, string>>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(values))))
const fromConfig = (values: Readonly<Record<string, string>>) =>
  WalletAuth.layerConfig.pipe(Layer.provide(Ids.layer), Layer.provide(env(values)))

/** One wallet's life on the five ports: OTP login, a stamped request, a passkey-less export. */
const walletFlow = Effect.gen(function* () {
  const otp = yield* OtpChallenges.OtpChallenges
  const keys = yield* WalletKeys.WalletKeys
  const signatures = yield* WalletSignatures.WalletSignatures
  yield* OidcTokens.OidcTokens
  yield* Passkeys.Passkeys
  const signer = yield* WalletAuth.SignerPublicKey

  const issued = yield* otp.issue({ length: 6, alphanumeric: false, fixedCode: "000000" })
  const tek = Signer.generateKeyPair()
  const encryptedOtpBundle = yield* Effect.promise(() =>
    Signer.encryptOtpBundle({
      otpEncryptionTargetBundle: issued.otpEncryptionTargetBundle,
      otpCode: "000000",
      publicKey: tek.publicKeyUncompressed,
      signerPublicKey: signer.uncompressedHex
    })
  )
  const opened = yield* otp.open({ encryptedOtpBundle, sealedTargetKey: issued.sealedTargetKey })
  expect(opened.codeDigest).toBe(issued.codeDigest)

  const payloadToSign = '{"requestId":"Request:1"}'
  const stamp = Signer.stamp({ payloadToSign, privateKey: tek.privateKey })
  expect(yield* signatures.verify({ stamp, payloadToSign, allowedPublicKeys: [opened.publicKey] })).toEqual({
    publicKey: opened.publicKey
  })

  const sealedSecret = yield* keys.createWalletSecret
  const device = Signer.generateKeyPair()
  const exportBundle = yield* keys.exportWalletSecret({
    sealedSecret,
    recipientPublicKey: device.publicKeyUncompressed,
    organizationId: "Platform:1"
  })
  const mnemonic = yield* Effect.promise(() =>
    Signer.openExportBundle({ exportBundle, privateKey: device.privateKey, signerPublicKey: signer.uncompressedHex })
  )
  return { signer: signer.uncompressedHex, words: mnemonic.split(" ").length }
})

describe("WalletAuth", () => {
  it.effect("provides every wallet port and the signer key clients pin, from options", () =>
    Effect.gen(function* () {
      const result = yield* walletFlow
      expect(result).toEqual({ signer: vector.signerPublicKeyHex, words: 12 })
      expect(Option.getOrNull(WalletAuth.signerPublicKeyOf(Redacted.make(vector.signerPrivateKeyHex)))).toBe(
        vector.signerPublicKeyHex
      )
      expect(Option.isNone(WalletAuth.signerPublicKeyOf(Redacted.make("00".repeat(32))))).toBe(true)
    }).pipe(
      Effect.provide(
        WalletAuth.layer({
          masterKey: Redacted.make(MASTER_KEY),
          signerPrivateKey: Redacted.make(vector.signerPrivateKeyHex)
        }).pipe(Layer.provide(Ids.layer))
      )
    )
  )

  it.effect("reads PAYRAIL_WALLET_MASTER_KEY and PAYRAIL_WALLET_SIGNER_KEY from configuration", () =>
    Effect.gen(function* () {
      const result = yield* walletFlow
      expect(result.signer).toBe(vector.signerPublicKeyHex)
    }).pipe(
      Effect.provide(
        fromConfig({ PAYRAIL_WALLET_MASTER_KEY: MASTER_KEY, PAYRAIL_WALLET_SIGNER_KEY: vector.signerPrivateKeyHex })
      )
    )
  )

  it.effect("refuses missing or malformed keys with a ConfigError that names the variable, not the value", () =>
    Effect.gen(function* () {
      const secret = "ab".repeat(31)
      const cases = [
        { PAYRAIL_WALLET_SIGNER_KEY: vector.signerPrivateKeyHex },
        { PAYRAIL_WALLET_MASTER_KEY: secret, PAYRAIL_WALLET_SIGNER_KEY: vector.signerPrivateKeyHex },
        { PAYRAIL_WALLET_MASTER_KEY: MASTER_KEY, PAYRAIL_WALLET_SIGNER_KEY: "ff".repeat(32) }
      ]
      for (const values of cases) {
        const exit = yield* Effect.exit(Effect.provide(WalletSignatures.WalletSignatures, fromConfig(values)))
        expect(Exit.isFailure(exit)).toBe(true)
        const message = Exit.isFailure(exit) ? String(exit.cause) : ""
        expect(message).toMatch(/PAYRAIL_WALLET_(MASTER|SIGNER)_KEY/)
        expect(message).not.toContain(secret)
        expect(message).not.toContain("ff".repeat(32))
      }
    })
  )
})
