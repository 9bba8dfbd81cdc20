import { Command, Options, type Usage } from "@effect/cli"
import { Console, Effect, Layer, Redacted } from "effect"
import { ApiToken, Platform, Platforms, WebhookSecrets } from "@payrail/core"
import * as AppLayer from "./AppLayer.js"
import * as Serve from "./Serve.js"
import { config } from "./ServerConfig.js"
import * as WebhooksCommand from "./WebhooksCommand.js"
import * as CustomersCommand from "./CustomersCommand.js"
import * as SeedCommand from "./SeedCommand.js"
import * as MigrationReport from "./MigrationReport.js"

/**
 * Runs `effect` with the configured domain; the store is opened (and migrated) first. `owner` names the command in
 * the embedded store's lock, so that a process finding the store in use can say which command holds it.
 */
const withDomain =
  (owner: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(config, (settings) => effect.pipe(Effect.provide(AppLayer.make(settings, owner))))

const serve = Command.make("serve", {}, () =>
  Effect.flatMap(config, (settings) =>
    // With no tracer to export to, every span (one per use case, one per SQL statement) is pure cost on the request
    // path; the server records them only when asked to.
    Layer.launch(Serve.layer(settings)).pipe(Effect.withTracerEnabled(settings.tracing))
  )
).pipe(Command.withDescription("Run the HTTP server (migrates the store first)"))

const migrate = Command.make("migrate", {}, () =>
  MigrationReport.withProgress(
    withDomain("payrail migrate")(Effect.logInfo("the store is migrated to the latest schema"))
  )
).pipe(Command.withDescription("Create or upgrade the database schema, then exit"))

const platformCreate = Command.make(
  "create",
  {
    name: Options.text("name").pipe(Options.withDescription("Display name of the platform")),
    environment: Options.choice("environment", ["SANDBOX", "PRODUCTION"] as const).pipe(
      Options.withDefault("SANDBOX" as const)
    )
  },
  ({ environment, name }) =>
    withDomain("payrail platform create")(
      Effect.gen(function* () {
        const platform = yield* (yield* Platforms.Platforms).create({ name, environment })
        const signing = yield* (yield* WebhookSecrets.WebhookSecrets).rotate(platform.id)
        yield* Console.log(platform.id)
        yield* Console.log(`webhook secret  ${Redacted.value(signing.secret)}`)
        yield* Console.log(
          "The webhook signing secret is shown only now; POST /webhooks/secret/rotate issues a new one."
        )
      })
    )
).pipe(Command.withDescription("Create a platform; prints its id and its webhook signing secret (once)"))

const platformList = Command.make("list", {}, () =>
  withDomain("payrail platform list")(
    Effect.gen(function* () {
      for (const platform of yield* (yield* Platforms.Platforms).list) {
        yield* Console.log(`${platform.id}\t${platform.environment}\t${platform.name}`)
      }
    })
  )
).pipe(Command.withDescription("List platforms"))

const tokenCreate = Command.make(
  "create",
  {
    platformId: Options.text("platform-id").pipe(Options.withSchema(Platform.PlatformId)),
    name: Options.text("name").pipe(Options.withDefault("cli")),
    permissions: Options.choice("permission", ApiToken.Permission.literals).pipe(
      Options.repeated,
      Options.withDescription("VIEW, TRANSACT or MANAGE; repeat for several (default: all three)")
    )
  },
  ({ name, permissions, platformId }) =>
    withDomain("payrail token create")(
      Effect.gen(function* () {
        const issued = yield* (yield* Platforms.Platforms).issueToken({
          platformId,
          name,
          permissions: permissions.length > 0 ? permissions : ApiToken.Permission.literals
        })
        yield* Console.log(`client id      ${issued.token.clientId}`)
        yield* Console.log(`client secret  ${Redacted.value(issued.clientSecret)}`)
        yield* Console.log("The secret is shown only now; only its hash is stored.")
      })
    )
).pipe(Command.withDescription("Issue an API token; prints its client id and secret once"))

const tokenRevoke = Command.make(
  "revoke",
  { clientId: Options.text("client-id").pipe(Options.withDescription("The client id of the token to revoke")) },
  ({ clientId }) =>
    withDomain("payrail token revoke")(
      Effect.gen(function* () {
        const revoked = yield* (yield* Platforms.Platforms).revokeToken(clientId)
        yield* Console.log(`revoked ${revoked.id} (${revoked.name}) of ${revoked.platformId}`)
      })
    )
).pipe(
  Command.withDescription("Revoke an API token: every server sharing the store refuses it from its next request on")
)

const platform = Command.make("platform").pipe(Command.withSubcommands([platformCreate, platformList]))
const token = Command.make("token").pipe(Command.withSubcommands([tokenCreate, tokenRevoke]))

/** The `payrail` command line: serve, migrate, and platform and token administration. */
export const command = Command.make("payrail").pipe(
  Command.withSubcommands([
    serve,
    migrate,
    platform,
    token,
    WebhooksCommand.command,
    SeedCommand.command,
    CustomersCommand.command
  ])
)

export const run = Command.run(command, { name: "payrail", version: "0.0.0" })

/** What running the command line needs from its platform: files, paths and a terminal (`NodeContext.layer`). */
export type Environment = Effect.Effect.Context<ReturnType<typeof run>>

/** Each command's usage, by the words that name it after `payrail`: the hint shown with a usage error. */
export const usages: ReadonlyArray<{ readonly words: ReadonlyArray<string>; readonly usage: Usage.Usage }> = [
  { words: ["serve"], usage: Command.getUsage(serve) },
  { words: ["migrate"], usage: Command.getUsage(migrate) },
  { words: ["platform", "create"], usage: Command.getUsage(platformCreate) },
  { words: ["platform", "list"], usage: Command.getUsage(platformList) },
  { words: ["token", "create"], usage: Command.getUsage(tokenCreate) },
  { words: ["token", "revoke"], usage: Command.getUsage(tokenRevoke) },
  ...WebhooksCommand.usages,
  ...SeedCommand.usages,
  ...CustomersCommand.usages
]
