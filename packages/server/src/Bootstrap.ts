import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type * as PlatformError from "@effect/platform/Error"
import { Effect, Option, type ParseResult, Redacted, Schema } from "effect"
import { type Errors, Platforms, WebhookSecrets } from "@payrail/core"

/** Credentials of the bootstrapped sandbox platform, as kept in `<data dir>/sandbox-credentials.json`. */
export const SandboxCredentials = Schema.Struct({
  platformId: Schema.String,
  clientId: Schema.String,
  clientSecret: Schema.String,
  /** The platform's first webhook signing secret (files written before webhooks existed have none). */
  webhookSecret: Schema.optional(Schema.String)
})
export type SandboxCredentials = typeof SandboxCredentials.Type

const credentialsFile = (dataDir: string) =>
  Effect.map(Path.Path, (path) => path.resolve(dataDir, "sandbox-credentials.json"))

const readCredentials = (file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    if (!(yield* fs.exists(file))) return Option.none<SandboxCredentials>()
    const text = yield* fs.readFileString(file)
    return Option.some(yield* Schema.decodeUnknown(Schema.parseJson(SandboxCredentials))(text))
  })

/** What the start-up banner shows about the sandbox platform. */
export type BootstrapOutcome =
  | { readonly _tag: "Created"; readonly credentials: SandboxCredentials; readonly file: string }
  | { readonly _tag: "Existing"; readonly credentials: Option.Option<SandboxCredentials>; readonly file: string }

/**
 * On the first start against an empty store, creates a sandbox platform with a token holding every permission and
 * its first webhook signing secret, and keeps them in `<dataDir>/sandbox-credentials.json` (mode 0600) so a developer can find them again.
 * Later starts create nothing and read that file back when it exists.
 */
export const ensureSandboxPlatform = (
  dataDir: string
): Effect.Effect<
  BootstrapOutcome,
  Errors.StoreFailure | Errors.PlatformNotFound | PlatformError.PlatformError | ParseResult.ParseError,
  Platforms.Platforms | WebhookSecrets.WebhookSecrets | FileSystem.FileSystem | Path.Path
> =>
  Effect.gen(function* () {
    const platforms = yield* Platforms.Platforms
    const fs = yield* FileSystem.FileSystem
    const file = yield* credentialsFile(dataDir)
    if ((yield* platforms.list).length > 0) {
      return { _tag: "Existing", credentials: yield* readCredentials(file), file } satisfies BootstrapOutcome
    }
    const platform = yield* platforms.create({ name: "Sandbox platform", environment: "SANDBOX" })
    const issued = yield* platforms.issueToken({
      platformId: platform.id,
      name: "bootstrap",
      permissions: ["VIEW", "TRANSACT", "MANAGE"]
    })
    const signing = yield* (yield* WebhookSecrets.WebhookSecrets).rotate(platform.id)
    const credentials: SandboxCredentials = {
      platformId: platform.id,
      clientId: issued.token.clientId,
      clientSecret: Redacted.value(issued.clientSecret),
      webhookSecret: Redacted.value(signing.secret)
    }
    yield* fs.makeDirectory(dataDir, { recursive: true })
    yield* fs.writeFileString(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
    return { _tag: "Created", credentials, file } satisfies BootstrapOutcome
  })
