import { Command, Options } from "@effect/cli"
import { Config, Duration } from "effect"
import * as WebhookListen from "./WebhookListen.js"

const listen = Command.make(
  "listen",
  {
    forwardTo: Options.text("forward-to").pipe(
      Options.withDescription("The local URL each event is posted to, e.g. http://localhost:3000/hooks")
    ),
    api: Options.text("api").pipe(
      Options.withFallbackConfig(
        Config.string("PAYRAIL_API_URL").pipe(Config.withDefault("http://127.0.0.1:8080/2025-10-13"))
      ),
      Options.withDescription(
        "The server's API base URL, as its banner prints it (default: PAYRAIL_API_URL or http://127.0.0.1:8080/2025-10-13)"
      )
    ),
    clientId: Options.text("client-id").pipe(
      Options.withFallbackConfig(Config.string("PAYRAIL_CLIENT_ID")),
      Options.withDescription("An API token's client id (default: PAYRAIL_CLIENT_ID)")
    ),
    clientSecret: Options.redacted("client-secret").pipe(
      Options.withFallbackConfig(Config.redacted("PAYRAIL_CLIENT_SECRET")),
      Options.withDescription("Its secret (default: PAYRAIL_CLIENT_SECRET); never printed")
    ),
    secret: Options.redacted("secret").pipe(
      Options.optional,
      Options.withDescription(
        "A whsec_… secret to sign forwarded webhooks with (e.g. your platform's); without it, a new one for this session, printed once"
      )
    ),
    pollIntervalMillis: Options.integer("poll-interval-ms").pipe(
      Options.withDefault(500),
      Options.withDescription("How long to wait between two reads that found no new event")
    )
  },
  ({ pollIntervalMillis, ...settings }) =>
    WebhookListen.listen({ ...settings, pollInterval: Duration.millis(Math.max(50, pollIntervalMillis)) })
).pipe(
  Command.withDescription(
    "Forward the platform's events from a running server to a local URL, signed, printing each delivery"
  )
)

/** `payrail webhooks …`: the webhook tools of the command line. */
export const command = Command.make("webhooks").pipe(Command.withSubcommands([listen]))

/** Each subcommand's usage, by the words after `payrail` (see `Cli.usages`). */
export const usages = [{ words: ["webhooks", "listen"], usage: Command.getUsage(listen) }] as const
