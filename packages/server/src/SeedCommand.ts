import { Command, Options } from "@effect/cli"
import * as ApiOptions from "./ApiOptions.js"
import * as Seed from "./Seed.js"

const seed = Command.make(
  "seed",
  {
    api: ApiOptions.api,
    clientId: ApiOptions.clientId,
    clientSecret: ApiOptions.clientSecret,
    seed: Options.integer("seed").pipe(
      Options.withDefault(1),
      Options.withDescription("The same number makes the same customers, accounts and transactions")
    ),
    customers: Options.integer("customers").pipe(
      Options.withDefault(12),
      Options.withDescription("How many customers, 2 to 500")
    ),
    days: Options.integer("days").pipe(
      Options.withDefault(21),
      Options.withDescription("How many days of transactions, 1 to 366 (the sandbox clock moves that far ahead)")
    )
  },
  (settings) =>
    Seed.seed({
      ...settings,
      customers: Math.min(500, Math.max(2, settings.customers)),
      days: Math.min(366, Math.max(1, settings.days))
    })
).pipe(
  Command.withDescription(
    "Fill a sandbox platform on a running server with customers, accounts and weeks of transactions"
  )
)

/** `payrail seed`. */
export const command = seed

/** Its usage, by the words after `payrail` (see `Cli.usages`). */
export const usages = [{ words: ["seed"], usage: Command.getUsage(seed) }] as const
