import { Options } from "@effect/cli"
import { Config } from "effect"

/**
 * The options of the commands that talk to a running server over HTTP (`webhooks listen`, `seed`): where its API is
 * and an API token's credentials, each with an environment variable to fall back on.
 */
export const api = Options.text("api").pipe(
  Options.withFallbackConfig(
    Config.string("PAYRAIL_API_URL").pipe(Config.withDefault("http://127.0.0.1:8080/2025-10-13"))
  ),
  Options.withDescription(
    "The server's API base URL, as its banner prints it (default: PAYRAIL_API_URL or http://127.0.0.1:8080/2025-10-13)"
  )
)

/** An API token's client id. */
export const clientId = Options.text("client-id").pipe(
  Options.withFallbackConfig(Config.string("PAYRAIL_CLIENT_ID")),
  Options.withDescription("An API token's client id (default: PAYRAIL_CLIENT_ID)")
)

/** Its secret: redacted, never printed. */
export const clientSecret = Options.redacted("client-secret").pipe(
  Options.withFallbackConfig(Config.redacted("PAYRAIL_CLIENT_SECRET")),
  Options.withDescription("The token's secret (default: PAYRAIL_CLIENT_SECRET); never printed")
)
