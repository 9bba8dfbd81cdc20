import type { Input } from "./Cases.js"

/** What a response can get wrong. */
export type FindingKind = "5xx" | "contract" | "leak" | "echo" | "transport"

/** Internals that must never reach a client: stack frames, SQL, source paths, Effect's tags. */
const leaks: ReadonlyArray<readonly [string, RegExp]> = [
  ["stack trace", / {4}at /],
  ["SQL", /\b(?:SELECT|INSERT|UPDATE|DELETE FROM)\b|\brelation\b|SQLSTATE/],
  ["file path", /\/src\/|\.ts:|node_modules/],
  ["_tag", /_tag/]
]

/**
 * The internals `text` reveals. `sent` are the values the request carried: a 2xx that stores and returns them (a
 * created customer's name) is not a leak, so they are cut out of a 2xx body first.
 */
export const leaksIn = (text: string, status: number, sent: ReadonlyArray<Input>): ReadonlyArray<string> => {
  let body = text
  for (const { key, value } of sent) {
    if ((status < 300 || key === true) && value.length > 0) {
      body = body.split(JSON.stringify(value).slice(1, -1)).join("").split(value).join("")
    }
  }
  return leaks.filter(([, pattern]) => pattern.test(body)).map(([name]) => name)
}

interface Leaf {
  readonly path: ReadonlyArray<string>
  readonly value: string
}

const leavesOf = (value: unknown, path: ReadonlyArray<string>, into: Array<Leaf>): Array<Leaf> => {
  if (typeof value === "string") into.push({ path, value })
  else if (Array.isArray(value)) value.forEach((item, index) => leavesOf(item, [...path, String(index)], into))
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      into.push({ path: [...path, "(key)"], value: key })
      leavesOf(item, [...path, key], into)
    }
  }
  return into
}

/** The shortest input value the echo check looks for: shorter ones appear in any text by chance. */
export const echoMinimumLength = 8

/**
 * The inputs an error response repeats. An input of 8+ characters counts unless it is an object key (an unknown
 * field is named by design), the document publishes it (an enum value) or the error names it by design: the whole value as `details.<name>`, where `<name>` is the parameter
 * or field that carried it (the `customerId` of a 404 USER_NOT_FOUND).
 */
export const echoesIn = (
  text: string,
  sent: ReadonlyArray<Input>,
  published: ReadonlySet<string>
): ReadonlyArray<string> => {
  const candidates = sent.filter(
    ({ key, value }) => key !== true && value.length >= echoMinimumLength && !published.has(value)
  )
  if (candidates.length === 0) return []
  // A field error naming a key the client sent (an unknown field) is by design, even when some input value happens
  // to spell the same word (`{"constructor": true, "address": {"postalCode": "constructor"}}`).
  const sentKeys = new Set(sent.filter(({ key }) => key === true).map(({ value }) => value))
  const namesSentKey = (leaf: Leaf) =>
    leaf.path.length === 4 &&
    leaf.path[0] === "details" &&
    leaf.path[1] === "errors" &&
    leaf.path[3] === "field" &&
    sentKeys.has(leaf.value.split(".").at(-1) ?? "")
  let leaves: ReadonlyArray<Leaf>
  try {
    leaves = leavesOf(JSON.parse(text), [], [])
  } catch {
    leaves = [{ path: [], value: text }]
  }
  const found: Array<string> = []
  for (const input of candidates) {
    const repeated = leaves.find(
      (leaf) =>
        leaf.value.includes(input.value) &&
        !namesSentKey(leaf) &&
        !(
          leaf.path.length === 2 &&
          leaf.path[0] === "details" &&
          leaf.path[1] === input.name &&
          leaf.value === input.value
        )
    )
    if (repeated !== undefined) {
      found.push(`${input.name} (${input.value.length} chars) repeated at ${repeated.path.join(".") || "(body)"}`)
    }
  }
  return found
}
