import { Cause, ConfigError, Option, Predicate } from "effect"
import { PgliteClient } from "@payrail/storage-postgres"

const maxDepth = 8

// Store and SQL errors wrap the error that explains them in `cause`, sometimes several levels deep.
const causes = (error: unknown): ReadonlyArray<unknown> => {
  const chain: Array<unknown> = []
  let current: unknown = error
  while (current !== undefined && chain.length < maxDepth) {
    chain.push(current)
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return chain
}

const dataDirectoryInUse = (error: unknown): Option.Option<PgliteClient.DataDirectoryInUse> =>
  Option.fromNullable(
    causes(error).find(
      (link): link is PgliteClient.DataDirectoryInUse => link instanceof PgliteClient.DataDirectoryInUse
    )
  )

/** What to do when another process has the embedded database open, for the `command` that was refused. */
const inUseAdvice = (inUse: PgliteClient.DataDirectoryInUse, command: string): string => {
  if (!inUse.holder.command.startsWith("payrail serve")) {
    return `${inUse.message}. Wait for it to end or stop it; if no such process runs, delete ${inUse.lockFile}.`
  }
  return command === "payrail serve"
    ? `${inUse.message}: a server is already running on this data directory. Stop it first, or give this one ` +
        "another PAYRAIL_DATA_DIR."
    : `${inUse.message}: the server is running. Stop it first, or make the change through its HTTP API; to run ` +
        "CLI commands beside a running server, store data in PostgreSQL (DATABASE_URL), which both can share."
}

const detailsText = (details: unknown): string =>
  Predicate.isRecord(details)
    ? Object.entries(details)
        .map(([key, value]) => `${key} ${typeof value === "string" ? value : JSON.stringify(value)}`)
        .join(", ")
    : ""

const messageOfError = (error: unknown): string => {
  if (error instanceof Error && error.message !== "") return error.message
  return String(error)
}

/**
 * One line for a failure of `command` (`payrail serve`) that a person can act on: never a stack, a source path or an
 * internal structure.
 */
export const describe = (error: unknown, command: string): string => {
  const inUse = dataDirectoryInUse(error)
  if (Option.isSome(inUse)) return inUseAdvice(inUse.value, command)
  if (ConfigError.isConfigError(error)) return `invalid configuration: ${String(error)}`
  if (Predicate.isTagged(error, "StoreFailure") && Predicate.hasProperty(error, "operation")) {
    const root = causes(error).at(-1)
    const explanation = root === error ? "" : `: ${messageOfError(root)}`
    return `the store failed while ${String(error.operation)}${explanation}`
  }
  if (Predicate.hasProperty(error, "reason") && typeof error.reason === "string") {
    const details = Predicate.hasProperty(error, "details") ? detailsText(error.details) : ""
    return details === "" ? error.reason : `${error.reason} (${details})`
  }
  return messageOfError(error)
}

/** The line for a failed run of `command`: its first failure, or its first defect as an unexpected error. */
export const describeCause = (cause: Cause.Cause<unknown>, command: string): string =>
  Option.match(Cause.failureOption(cause), {
    onSome: (error) => describe(error, command),
    onNone: () =>
      Option.match(Cause.dieOption(cause), {
        onSome: (defect) => `unexpected error: ${describe(defect, command)}`,
        onNone: () => "interrupted"
      })
  })
