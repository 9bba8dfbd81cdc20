import { Console, Option } from "effect"
import { PayrailApi } from "@payrail/api"
import { PayrailHttp } from "@payrail/http"
import type { BootstrapOutcome } from "./Bootstrap.js"

/** The column every value of the banner starts at, whatever the label and its indentation. */
export const valueColumn = 20

const row = (label: string, value: string, indent = 2): string =>
  `${" ".repeat(indent)}${label.padEnd(valueColumn - indent - 1)} ${value}`

/** What the banner shows. */
export interface BannerInput {
  readonly baseUrl: string
  readonly storage: string
  /** The wallet signer's public key (uncompressed hex): what clients pin to check OTP target and export bundles. */
  readonly walletSignerPublicKey: string
  readonly bootstrap: Option.Option<BootstrapOutcome>
}

/**
 * The start-up banner: where the server answers and how to authenticate against its sandbox platform. Every
 * labelled line has its value at `valueColumn`.
 */
export const render = (input: BannerInput): string => {
  const api = `${input.baseUrl}${PayrailApi.basePath}`
  const lines = [
    "",
    "Payrail reference server",
    row("API base URL", api),
    row(
      "API reference",
      `${input.baseUrl}${PayrailHttp.docsPath}  (OpenAPI: ${input.baseUrl}${PayrailHttp.openApiPath})`
    ),
    row("Sandbox console", `${input.baseUrl}${PayrailHttp.consolePath}  (sign in with a sandbox platform's API token)`),
    row("Storage", input.storage),
    row("Wallet signer", input.walletSignerPublicKey)
  ]
  if (Option.isSome(input.bootstrap)) {
    const outcome = input.bootstrap.value
    const credentials = outcome._tag === "Created" ? Option.some(outcome.credentials) : outcome.credentials
    if (Option.isSome(credentials)) {
      const { clientId, clientSecret, platformId, webhookSecret } = credentials.value
      lines.push(
        row("Sandbox platform", `${platformId}${outcome._tag === "Created" ? " (created now)" : ""}`),
        row("client id", clientId, 4),
        row("client secret", clientSecret, 4),
        ...(webhookSecret === undefined
          ? []
          : [row("webhook secret", `${webhookSecret}  (as issued; POST /webhooks/secret/rotate replaces it)`, 4)]),
        row("kept in", outcome.file, 4),
        `  Try: curl -u '${clientId}:${clientSecret}' ${api}/customers`
      )
    } else {
      lines.push(
        "  Platforms exist already; their secrets were shown when they were created.",
        "  Issue a new token with: npm run payrail -- token create --platform-id <id>",
        "  (on the embedded store, stop the server first: one process at a time opens it)"
      )
    }
  }
  return lines.join("\n") + "\n"
}

/** Prints the start-up banner on stdout. */
export const print = (input: BannerInput) => Console.log(render(input))
