import { validateMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted } from "effect"
import { Ids, WalletKeys } from "@payrail/core"
import { Signer } from "@payrail/signer"
import { KeyCustody, SessionKeys, WalletKeysAdapter } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const SIGNER_PRIVATE_KEY = "67fc72c4d7a48947ad73eb01312057d0cebaeaa1d0630d104414b180cd616b4a"
const MASTER_KEY = Redacted.make("42".repeat(32))

const live = WalletKeysAdapter.layer({ signerPrivateKey: Redacted.make(SIGNER_PRIVATE_KEY) }).pipe(
  Layer.provide(Layer.mergeAll(SessionKeys.layer, KeyCustody.layer({ masterKey: MASTER_KEY }))),
  Layer.provideMerge(Ids.layer)
)
const keys = WalletKeys.WalletKeys

describe("WalletKeysAdapter.parsePublicKey", () => {
  const pair = Signer.generateKeyPair()

  it.effect("returns the lowercase compressed key and whether it came uncompressed, for either form and case", () =>
    Effect.gen(function* () {
      const { parsePublicKey } = yield* keys
      expect(yield* parsePublicKey(pair.publicKeyCompressed.toUpperCase(), "clientPublicKey")).toEqual({
        compressed: pair.publicKeyCompressed,
        wasUncompressed: false
      })
      expect(yield* parsePublicKey(pair.publicKeyUncompressed.toUpperCase(), "clientPublicKey")).toEqual({
        compressed: pair.publicKeyCompressed,
        wasUncompressed: true
      })
    }).pipe(Effect.provide(live))
  )

  it.effect("refuses anything else with INVALID_INPUT naming the field", () =>
    Effect.gen(function* () {
      const { parsePublicKey } = yield* keys
      const offCurve = `04${"00".repeat(64)}`
      const notX = `02${"ff".repeat(32)}`
      for (const text of [
        "",
        pair.publicKeyCompressed.slice(2),
        `05${pair.publicKeyCompressed.slice(2)}`,
        ` ${pair.publicKeyCompressed}`,
        offCurve,
        notX,
        `${pair.publicKeyUncompressed}00`
      ]) {
        const error = yield* Effect.flip(parsePublicKey(text, "clientPublicKey"))
        expect([error._tag, error.code, error.details?.errors[0]?.field]).toEqual([
          "InvalidInput",
          "INVALID_INPUT",
          "clientPublicKey"
        ])
      }
    }).pipe(Effect.provide(live))
  )
})

describe("WalletKeysAdapter.sealSessionKey", () => {
  it.effect("seals a fresh session key that the client opens with its private key", () =>
    Effect.gen(function* () {
      const { sealSessionKey } = yield* keys
      const client = Signer.generateKeyPair()
      const sealed = yield* sealSessionKey(client.publicKeyUncompressed)
      const onDevice = yield* Effect.promise(() =>
        Signer.openSessionKeyBundle({
          encryptedSessionSigningKey: sealed.encryptedSessionSigningKey,
          privateKey: client.privateKey
        })
      )
      expect(onDevice.publicKeyCompressed).toBe(sealed.publicKey)
      expect(sealed.publicKey).toMatch(/^0[23][0-9a-f]{64}$/)
    }).pipe(Effect.provide(live))
  )
})

describe("WalletKeysAdapter wallet secrets", () => {
  const signer = vectors.otpBundles[0]!

  it.effect("creates a sealed 12-word BIP-39 mnemonic that an export delivers to the requesting device", () =>
    Effect.gen(function* () {
      const { createWalletSecret, exportWalletSecret } = yield* keys
      const sealedSecret = yield* createWalletSecret
      expect(sealedSecret).toMatch(/^v1\./)
      const device = Signer.generateKeyPair()
      const exported = yield* exportWalletSecret({
        sealedSecret,
        recipientPublicKey: device.publicKeyUncompressed,
        organizationId: "Platform:1"
      })
      const outer = JSON.parse(exported) as Record<string, string>
      expect(Object.keys(outer)).toEqual(["version", "data", "dataSignature", "enclaveQuorumPublic"])
      expect(outer["enclaveQuorumPublic"]).toBe(signer.signerPublicKeyHex)
      const mnemonic = yield* Effect.promise(() =>
        Signer.openExportBundle({
          exportBundle: exported,
          privateKey: device.privateKey,
          signerPublicKey: signer.signerPublicKeyHex,
          organizationId: "Platform:1"
        })
      )
      expect(mnemonic.split(" ")).toHaveLength(12)
      expect(validateMnemonic(mnemonic, wordlist)).toBe(true)
      expect(sealedSecret).not.toContain(mnemonic.split(" ")[0])

      const again = yield* exportWalletSecret({
        sealedSecret,
        recipientPublicKey: device.publicKeyUncompressed,
        organizationId: "Platform:1"
      })
      expect(again).not.toBe(exported)
      const sameMnemonic = yield* Effect.promise(() =>
        Signer.openExportBundle({ exportBundle: again, privateKey: device.privateKey })
      )
      expect(sameMnemonic).toBe(mnemonic)
      const otherDevice = yield* Effect.promise(() =>
        Signer.openExportBundle({ exportBundle: exported, privateKey: Signer.generateKeyPair().privateKey }).then(
          () => "opened",
          (error: Signer.SignerError) => error.code
        )
      )
      expect(otherDevice).toBe("AeadFailure")
    }).pipe(Effect.provide(live))
  )

  it.effect("makes a different secret for every wallet", () =>
    Effect.gen(function* () {
      const { createWalletSecret } = yield* keys
      expect(yield* createWalletSecret).not.toBe(yield* createWalletSecret)
    }).pipe(Effect.provide(live))
  )

  it.effect("treats a sealed secret it cannot open as a defect", () =>
    Effect.gen(function* () {
      const { exportWalletSecret } = yield* keys
      const exit = yield* Effect.exit(
        exportWalletSecret({
          sealedSecret: "v1.AAAAAAAAAAA.AAAA.AAAA",
          recipientPublicKey: Signer.generateKeyPair().publicKeyUncompressed,
          organizationId: "Platform:1"
        })
      )
      expect(Exit.isFailure(exit) && exit.cause._tag).toBe("Die")
    }).pipe(Effect.provide(live))
  )
})
