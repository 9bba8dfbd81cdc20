import { Console, Effect, Option } from "effect"
import { PayrailApi } from "@payrail/api"
import { PayrailHttp } from "@payrail/http"
import type { BootstrapOutcome } from "./Bootstrap.js"

/** Prints where the server answers and how to authenticate against its sandbox platform. */
export const print = (input: {
  readonly baseUrl: string
  readonly storage: string
  readonly bootstrap: Option.Option<BootstrapOutcome>
}) =>
  Effect.gen(function* () {
    const api = `${input.baseUrl}${PayrailApi.basePath}`
    const lines = [
      "",
      "Payrail reference server",
      `  API base URL   ${api}`,
      `  API reference  ${input.baseUrl}${PayrailHttp.docsPath}  (OpenAPI: ${input.baseUrl}${PayrailHttp.openApiPath})`,
      `  Storage        ${input.storage}`
    ]
    if (Option.isSome(input.bootstrap)) {
      const outcome = input.bootstrap.value
      const credentials = outcome._tag === "Created" ? Option.some(outcome.credentials) : outcome.credentials
      if (Option.isSome(credentials)) {
        const { clientId, clientSecret, platformId } = credentials.value
        lines.push(
          `  Sandbox platform ${platformId}${outcome._tag === "Created" ? " (created now)" : ""}`,
          `    client id      ${clientId}`,
          `    client secret  ${clientSecret}`,
          `    (kept in ${outcome.file})`,
          `  Try: curl -u '${clientId}:${clientSecret}' ${api}/customers`
        )
      } else {
        lines.push(
          "  Platforms exist already; their secrets were shown when they were created.",
          "  Issue a new token with: pnpm payrail token create --platform-id <id> --name <name>"
        )
      }
    }
    yield* Console.log(lines.join("\n") + "\n")
  })
