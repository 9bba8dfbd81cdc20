import { Args, Command, Options } from "@effect/cli"
import { Duration } from "effect"
import * as ApiOptions from "./ApiOptions.js"
import * as CustomersImport from "./CustomersImport.js"

const importCommand = Command.make(
  "import",
  {
    file: Args.file({ name: "file.csv", exists: "yes" }).pipe(
      Args.withDescription("The CSV file of customers (columns in docs/bulk-import.md)")
    ),
    api: ApiOptions.api,
    clientId: ApiOptions.clientId,
    clientSecret: ApiOptions.clientSecret,
    showErrors: Options.integer("show-errors").pipe(
      Options.withDefault(20),
      Options.withDescription("How many failed rows to print at the end, 1 to 100")
    ),
    pollIntervalMillis: Options.integer("poll-interval-ms").pipe(
      Options.withDefault(1000),
      Options.withDescription("How long to wait between two reads of the job's progress")
    )
  },
  ({ pollIntervalMillis, showErrors, ...settings }) =>
    CustomersImport.importCustomers({
      ...settings,
      showErrors: Math.min(100, Math.max(1, showErrors)),
      pollInterval: Duration.millis(Math.max(50, pollIntervalMillis))
    })
).pipe(
  Command.withDescription(
    "Import customers from a CSV file into a running server's platform, showing the job's progress and failed rows"
  )
)

/** `payrail customers …`: the customer tools of the command line. */
export const command = Command.make("customers").pipe(Command.withSubcommands([importCommand]))

/** Each subcommand's usage, by the words after `payrail` (see `Cli.usages`). */
export const usages = [{ words: ["customers", "import"], usage: Command.getUsage(importCommand) }] as const
