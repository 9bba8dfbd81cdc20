import { Command, Options } from "@effect/cli"
import { Duration } from "effect"
import * as ApiOptions from "./ApiOptions.js"
import * as WebhookListen from "./WebhookListen.js"

const listen = Command.make(
  "listen",
  {
    forwardTo: Options.text("forward-to").pipe(
      Options.withDescription("The local URL each event is posted to, e.g. http://localhost:3000/hooks")
    ),
    api: ApiOptions.api,
    clientId: ApiOptions.clientId,
    clientSecret: ApiOptions.clientSecret,
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
