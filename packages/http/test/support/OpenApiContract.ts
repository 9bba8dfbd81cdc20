import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js"
import formats from "ajv-formats"

/*
 * The served OpenAPI document is the contract (DESIGN §8): every end-to-end test sends its responses through
 * `OpenApiContract.verify`, so a status or a body the document does not describe fails the test that saw it.
 */

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** A response that the OpenAPI document does not describe. The message names the operation, status and rule. */
export class ContractViolation extends Error {
  override readonly name = "ContractViolation"
}

/** What the contract is checked against: the request line and the response as received. */
export interface Exchange {
  readonly method: string
  /** The path below the mount prefix, without query string (`/2025-10-13/customers/Customer:…`). */
  readonly path: string
  readonly status: number
  readonly contentType: string | null
  /** The raw response body; empty when there is none. */
  readonly body: string
}

/** A loaded contract: `verify` throws a `ContractViolation` for any exchange the document does not describe. */
export interface OpenApiContract {
  readonly document: Json
  readonly verify: (exchange: Exchange) => void
}

interface Operation {
  readonly method: string
  readonly template: string
  readonly pattern: RegExp
  readonly params: number
  readonly operationId: string
  readonly responses: Json
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

const documentId = "payrail:openapi.json"

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1")

const templatePattern = (template: string) =>
  new RegExp(
    `^${template
      .split("/")
      .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/")}$`
  )

const formatsIn = (value: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(value)) for (const item of value) formatsIn(item, into)
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "format" && typeof child === "string") into.add(child)
      formatsIn(child, into)
    }
  }
  return into
}

const show = (value: unknown) => {
  const text = JSON.stringify(value)
  return text === undefined ? "undefined" : text.length > 120 ? `${text.slice(0, 117)}...` : text
}

const valueAt = (body: unknown, pointer: string): unknown =>
  pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>(
      (current, key) => (isObject(current) || Array.isArray(current) ? (current as Json)[key] : undefined),
      body
    )

const describeError = (body: unknown, error: ErrorObject) =>
  `  at ${error.instancePath === "" ? "/" : error.instancePath}: ${error.message ?? error.keyword} ` +
  `${show(error.params)} (schema rule ${error.schemaPath}); actual ${show(valueAt(body, error.instancePath))}`

/**
 * Builds the contract from an OpenAPI 3.1 document: response schemas are compiled with Ajv's JSON Schema 2020-12
 * dialect, `#/components/schemas` references resolve inside the document, and standard formats (`date-time`,
 * `email`, …) are checked by `ajv-formats`.
 */
export const fromDocument = (document: Json): OpenApiContract => {
  // OpenAPI adds keywords of its own (and the document's top level is not a schema): not strict.
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  formats.default(ajv)
  // Payrail's field-format slugs (`iban`, `e.164`, `us-ssn`, …) name a rule for clients; the schema's `pattern`
  // and length keywords carry what JSON Schema can check, so the slugs themselves accept any string here.
  for (const format of formatsIn(document, new Set())) {
    if (ajv.formats[format] === undefined) ajv.addFormat(format, true)
  }
  ajv.addSchema(document, documentId)

  const operations: Array<Operation> = []
  const paths = isObject(document["paths"]) ? document["paths"] : {}
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const method of methods) {
      const operation = item[method]
      if (!isObject(operation) || !isObject(operation["responses"])) continue
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern: templatePattern(template),
        params: (template.match(/\{/g) ?? []).length,
        operationId: typeof operation["operationId"] === "string" ? operation["operationId"] : "(no operationId)",
        responses: operation["responses"]
      })
    }
  }
  // A literal segment wins over a parameter (`/customers/internal-accounts` before `/customers/{customerId}`).
  operations.sort((a, b) => a.params - b.params)

  const validators = new Map<string, ValidateFunction>()
  const validatorFor = (operation: Operation, status: string): ValidateFunction | undefined => {
    const key = `${operation.method} ${operation.template} ${status}`
    const cached = validators.get(key)
    if (cached !== undefined) return cached
    const response = operation.responses[status]
    const content = isObject(response) && isObject(response["content"]) ? response["content"] : undefined
    if (content === undefined || !isObject(content["application/json"])) return undefined
    const pointer = [
      "paths",
      operation.template,
      operation.method.toLowerCase(),
      "responses",
      status,
      "content",
      "application/json",
      "schema"
    ]
      .map(escapePointer)
      .join("/")
    const validate = ajv.compile({ $ref: `${documentId}#/${pointer}` })
    validators.set(key, validate)
    return validate
  }

  const label = (operation: Operation) => `${operation.method} ${operation.template} (${operation.operationId})`

  const fail = (exchange: Exchange, where: string, problems: ReadonlyArray<string>): never => {
    throw new ContractViolation(
      [
        `The response to ${exchange.method} ${exchange.path} does not match the OpenAPI document`,
        `  operation: ${where}`,
        `  status:    ${exchange.status}`,
        ...problems
      ].join("\n")
    )
  }

  const parse = (exchange: Exchange, where: string): unknown => {
    if (exchange.body === "") return undefined
    if (exchange.contentType === null || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(exchange.contentType)) {
      return fail(exchange, where, [`  body has content type ${exchange.contentType ?? "(none)"}, not JSON`])
    }
    try {
      return JSON.parse(exchange.body)
    } catch {
      return fail(exchange, where, ["  body is not valid JSON"])
    }
  }

  // Checks the body against the response `status` of `operation`; returns the problems found.
  const problemsWith = (operation: Operation, exchange: Exchange, body: unknown): ReadonlyArray<string> => {
    const status = String(exchange.status)
    if (!isObject(operation.responses[status])) {
      return [`  status ${status} is not documented (documented: ${Object.keys(operation.responses).join(", ")})`]
    }
    const validate = validatorFor(operation, status)
    if (validate === undefined)
      return body === undefined ? [] : [`  status ${status} is documented without a body, but one was sent`]
    if (body === undefined) return [`  status ${status} is documented with a JSON body, but none was sent`]
    if (validate(body)) return []
    return (validate.errors ?? []).slice(0, 15).map((error) => describeError(body, error))
  }

  const verify = (exchange: Exchange): void => {
    const candidates = operations.filter((operation) => operation.pattern.test(exchange.path))
    const operation = candidates.find((candidate) => candidate.method === exchange.method)
    if (operation !== undefined) {
      const body = parse(exchange, label(operation))
      const problems = problemsWith(operation, exchange, body)
      if (problems.length > 0) fail(exchange, label(operation), problems)
      return
    }
    // No operation answers this request: only an error fits, with a status and body that every operation that could
    // have matched (all of them, for an unknown path) documents, such as the 404 of a missing route or the 405.
    const fallback = candidates.length > 0 ? candidates : operations
    const where =
      candidates.length > 0
        ? `none for ${exchange.method}; the path is ${candidates[0]?.template} (${candidates.map((c) => c.method).join(", ")})`
        : "none: no path template matches"
    if (exchange.status < 400)
      fail(exchange, where, [`  status ${exchange.status} is not an error, but no operation answers this request`])
    const body = parse(exchange, where)
    const problems = new Map<string, Array<Operation>>()
    for (const candidate of fallback) {
      for (const problem of problemsWith(candidate, exchange, body))
        problems.set(problem, [...(problems.get(problem) ?? []), candidate])
    }
    if (problems.size > 0) {
      fail(
        exchange,
        where,
        [...problems]
          .slice(0, 15)
          .map(([problem, at]) => `${problem} [in ${at.length} operation(s), e.g. ${at.map(label)[0]}]`)
      )
    }
  }

  return { document, verify }
}

/** A `fetch`-shaped function: what the harness, the server tests and the typed client send requests through. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** Paths outside the API's operations: the document and the reference page themselves. */
const servedOutsideTheContract = new Set(["/openapi.json", "/docs"])

/**
 * Wraps `fetch` so that every response is verified against the OpenAPI document served at
 * `<mountUrl>/openapi.json`, fetched once on first use. `mountUrl` is where the API is mounted (origin plus any
 * prefix). A response that breaks the contract rejects the call with a `ContractViolation`; any other response
 * is handed back unchanged (its body still unread).
 */
export const checkedFetch = (fetch: Fetch, mountUrl: string): Fetch => {
  const mount = new URL(mountUrl)
  const prefix = mount.pathname.replace(/\/+$/, "")
  const documentUrl = `${mount.origin}${prefix}/openapi.json`
  let contract: Promise<OpenApiContract> | undefined
  const load = () =>
    (contract ??= fetch(documentUrl).then(async (response) => {
      if (response.status !== 200) throw new Error(`GET ${documentUrl} answered ${response.status}`)
      const document: unknown = await response.json()
      if (!isObject(document) || !isObject(document["paths"]) || Object.keys(document["paths"]).length === 0) {
        throw new Error(`${documentUrl} is not an OpenAPI document with paths`)
      }
      return fromDocument(document)
    }))
  return async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const response = await fetch(request)
    const inside = url.origin === mount.origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))
    const path = inside ? url.pathname.slice(prefix.length) || "/" : `(outside the mount) ${url.pathname}`
    // The hosted verification page (`/verify/…`), the card reveal page (`/cards/reveal/…`) and the sandbox console
    // (`/console`, its assets and event log) answer outside the API's contract.
    if (
      servedOutsideTheContract.has(path) ||
      path.startsWith("/verify/") ||
      path.startsWith("/cards/reveal/") ||
      path === "/console" ||
      path.startsWith("/console/")
    ) {
      return response
    }
    const body = await response.text()
    ;(await load()).verify({
      method: request.method,
      path,
      status: response.status,
      contentType: response.headers.get("content-type"),
      body
    })
    return new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }
}
