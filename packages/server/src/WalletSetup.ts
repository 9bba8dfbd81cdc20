import { chmod, mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { Config, Effect, Layer, Option, Redacted, Schema } from "effect"
import { Errors, type Ids, type OtpDelivery } from "@payrail/core"
import { WalletAuth } from "@payrail/wallet-auth"
import type { ServerConfig } from "./ServerConfig.js"
import * as SmtpOtpDelivery from "./SmtpOtpDelivery.js"

/** The file, in the data directory, that keeps generated wallet keys when none are configured. */
export const keyFileName = "wallet-keys.json"

const KeyFile = Schema.parseJson(Schema.Struct({ masterKey: Schema.String, signerPrivateKey: Schema.String }))

const configured = Config.all({
  masterKey: Config.option(Config.redacted(WalletAuth.MASTER_KEY_VARIABLE)),
  signerPrivateKey: Config.option(Config.redacted(WalletAuth.SIGNER_KEY_VARIABLE))
})

// Reads the key file, or writes a new one (owner-only) when there is none.
const keyFile = (file: string) =>
  Effect.gen(function* () {
    const existing = yield* Effect.tryPromise(() => readFile(file, "utf8")).pipe(Effect.option)
    if (Option.isSome(existing)) {
      return yield* Schema.decodeUnknown(KeyFile)(existing.value).pipe(
        Effect.mapError(() => Errors.StoreFailure.of(`${file} is not a Payrail wallet key file`))
      )
    }
    const generated = yield* WalletAuth.generateKeys
    const keys = {
      masterKey: Redacted.value(generated.masterKey),
      signerPrivateKey: Redacted.value(generated.signerPrivateKey)
    }
    yield* Effect.tryPromise({
      try: async () => {
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" })
        await chmod(file, 0o600)
      },
      catch: () => Errors.StoreFailure.of(`could not write the wallet key file ${file}`)
    })
    yield* Effect.logWarning(
      `wallet keys generated in ${file}: set ${WalletAuth.MASTER_KEY_VARIABLE} and ${WalletAuth.SIGNER_KEY_VARIABLE} ` +
        "in production (every server instance of one database needs the same keys)"
    )
    return keys
  })

/**
 * The wallet ports of the reference server: the keys from `PAYRAIL_WALLET_MASTER_KEY` and
 * `PAYRAIL_WALLET_SIGNER_KEY` when both are set (a malformed one stops the start, naming the variable); otherwise, on
 * memory storage, keys drawn for this process only, and on PGlite or PostgreSQL, keys generated once into
 * `<dataDir>/wallet-keys.json` (owner-only) with a warning. Keys are never logged.
 */
export const walletAuth = (
  settings: ServerConfig
): Layer.Layer<WalletAuth.Ports | WalletAuth.SignerPublicKey, Errors.StoreFailure, Ids.Ids> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const keys = yield* configured.pipe(Effect.orDie)
      if (Option.isSome(keys.masterKey) || Option.isSome(keys.signerPrivateKey)) {
        return WalletAuth.layerConfig.pipe(Layer.orDie)
      }
      if (settings.storage === "memory") return WalletAuth.layerEphemeral
      const file = yield* keyFile(path.resolve(settings.dataDir, keyFileName))
      return WalletAuth.layer({
        masterKey: Redacted.make(file.masterKey),
        signerPrivateKey: Redacted.make(file.signerPrivateKey)
      })
    })
  )

/** One-time codes go out over SMTP when `PAYRAIL_SMTP_URL` is set; otherwise the sandbox captures them. */
export const otpDelivery: Layer.Layer<OtpDelivery.OtpDelivery, never> | Layer.Layer<never> = Layer.unwrapEffect(
  Effect.map(SmtpOtpDelivery.fromConfig.pipe(Effect.orDie), (options) =>
    Option.match(options, {
      onNone: (): Layer.Layer<never> => Layer.empty,
      onSome: (smtp) => SmtpOtpDelivery.layer(smtp)
    })
  )
)
