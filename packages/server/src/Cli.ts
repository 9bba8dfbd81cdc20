import { Command, Options } from "@effect/cli"
import { Console, Effect, Layer, Redacted } from "effect"
import { ApiToken, Platform, Platforms } from "@payrail/core"
import * as AppLayer from "./AppLayer.js"
import * as Logging from "./Logging.js"
import * as Serve from "./Serve.js"
import { config } from "./ServerConfig.js"

/** Runs `effect` with the configured domain and logging; the store is opened (and migrated) first. */
const withDomain = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(config, (settings) =>
    effect.pipe(Effect.provide(AppLayer.make(settings)), Effect.provide(Logging.layer(settings)))
  )

const serve = Command.make("serve", {}, () =>
  Effect.flatMap(config, (settings) =>
    Layer.launch(Serve.layer(settings)).pipe(Effect.provide(Logging.layer(settings)))
  )
).pipe(Command.withDescription("Run the HTTP server (migrates the store first)"))

const migrate = Command.make("migrate", {}, () =>
  withDomain(Effect.logInfo("the store is migrated to the latest schema"))
).pipe(Command.withDescription("Create or upgrade the database schema, then exit"))

const platformCreate = Command.make(
  "create",
  {
    name: Options.text("name").pipe(Options.withDescription("Display name of the platform")),
    environment: Options.choice("environment", ["SANDBOX", "PRODUCTION"] as const).pipe(Options.withDefault("SANDBOX" as const))
  },
  ({ environment, name }) =>
    withDomain(
      Effect.gen(function* () {
        const platform = yield* (yield* Platforms.Platforms).create({ name, environment })
        yield* Console.log(platform.id)
      })
    )
).pipe(Command.withDescription("Create a platform and print its id"))

const platformList = Command.make("list", {}, () =>
  withDomain(
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
    withDomain(
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

const platform = Command.make("platform").pipe(Command.withSubcommands([platformCreate, platformList]))
const token = Command.make("token").pipe(Command.withSubcommands([tokenCreate]))

/** The `payrail` command line: serve, migrate, and platform and token administration. */
export const command = Command.make("payrail").pipe(Command.withSubcommands([serve, migrate, platform, token]))

export const run = Command.run(command, { name: "payrail", version: "0.0.0" })
