import { ContractViolation, fromDocument as contractOf, type Fetch } from "../support/OpenApiContract.js"
import { type Body, type Case, type Context, plans } from "./Cases.js"
import { echoesIn, type FindingKind, leaksIn } from "./Checks.js"
import * as Operations from "./Operations.js"
import type { Seed, SeedContext } from "./Seeds.js"

/** Where the fuzz sends its requests: the API's mount URL, a fetch to it, and the credentials it may use. */
export interface Target {
  /** Origin plus any mount prefix, without a trailing slash (`http://127.0.0.1:8080`). */
  readonly mountUrl: string
  readonly fetch: Fetch
  /** `Authorization` value of a token holding every permission. */
  readonly basic: string
  /** `Authorization` value of a VIEW-only token of the same platform; without it the VIEW cases use `basic`. */
  readonly viewBasic?: string
  /** `Authorization` value of an agent's access token (`Bearer gat_…`), for the agent operations. */
  readonly agentBearer?: string
  /** Ids the fuzz must never use as an existing id (deleting them would turn later cases into 401s). */
  readonly protectedIds?: ReadonlyArray<string>
  /** Ids of resources the target made before the run (the API alone cannot), known as existing ids from the start. */
  readonly seededIds?: ReadonlyArray<string>
  /** Whether the target reads a request's Content-Length from the header the fuzz sets (in process) or sets its own. */
  readonly inProcess: boolean
}

/** A request the server answered wrongly: enough to replay it (`seed`, `index`) and to see what went wrong. */
export interface Finding {
  readonly kind: FindingKind
  readonly index: number
  readonly operation: string
  readonly mutation: string
  readonly request: string
  readonly status: number
  readonly detail: string
}

/** A seed request as sent, and the status it got. */
export interface SeedResult {
  readonly method: string
  readonly path: string
  readonly status: number
}

/** Counts by status of one operation. */
export interface OperationCounts {
  requests: number
  readonly statuses: Record<string, number>
  findings: number
}

/** The outcome of a run. `findings` keeps the first `keepFindings`; `counts` counts them all. */
export interface Summary {
  readonly seed: number
  /** What each seed answered, in order: a seed that did not answer a 2xx left its resource out of the run. */
  readonly seeded: ReadonlyArray<SeedResult>
  requests: number
  /** Cases the fetch implementation refused to build (a header value it cannot send); not sent, not counted. */
  unsendable: number
  readonly statuses: Record<string, number>
  readonly counts: Record<FindingKind, number>
  readonly byOperation: Record<string, OperationCounts>
  readonly findings: Array<Finding>
  durationMs: number
}

/** Options of a run. */
export interface RunOptions {
  readonly target: Target
  readonly seed: number
  readonly requests: number
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number
  /** Requests sent before the fuzz so that ids of existing resources are known (their statuses in `seeded`). */
  readonly seeds?: ReadonlyArray<Seed>
  readonly keepFindings?: number
  /** Called with each finding as it happens (the long run prints them). */
  readonly onFinding?: (finding: Finding) => void
  /** Called with every exchange (the replay of one case prints it). */
  readonly onExchange?: (kase: Case, status: number, body: string) => void
  /** Sends only case `index` (with its seed), to reproduce one finding. */
  readonly only?: number
}

const idPattern = /^([A-Z][A-Za-z]+):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Ids seen in successful responses, by resource type: what "an existing id" means to the cases. */
class IdPool implements Context {
  private readonly byType = new Map<string, Array<string>>()
  private readonly protectedIds = new Set<string>()
  /** Keeps `id` out of the pool: the fuzz's own tokens, which a DELETE case would otherwise revoke mid-run. */
  protect(id: string): void {
    this.protectedIds.add(id)
    for (const [type, ids] of this.byType)
      this.byType.set(
        type,
        ids.filter((known) => known !== id)
      )
  }
  harvest(value: unknown): void {
    if (typeof value === "string") {
      const type = idPattern.exec(value)?.[1]
      if (type === undefined || this.protectedIds.has(value)) return
      const ids = this.byType.get(type) ?? []
      if (ids.length < 64 && !ids.includes(value)) ids.push(value)
      this.byType.set(type, ids)
    } else if (Array.isArray(value)) for (const item of value) this.harvest(item)
    else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) this.harvest(item)
  }
  readonly existing = (resourceType: string, pick: number): string | undefined => {
    const ids = this.byType.get(resourceType)
    return ids === undefined || ids.length === 0 ? undefined : ids[pick % ids.length]
  }
}

const chunk = new TextEncoder().encode(`{"fullName":"${"x".repeat(64 * 1024 - 13)}`)

const bodyOf = (body: Body | undefined): { body?: BodyInit; duplex?: "half"; length?: number } => {
  if (body === undefined) return {}
  if (body.kind === "text") return { body: body.text }
  if (!body.chunked) return { body: `{"fullName":"${"x".repeat(body.size - 16)}"}`, length: body.size }
  let sent = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= body.size) return controller.close()
      sent += chunk.length
      controller.enqueue(chunk)
    }
  })
  return { body: stream, duplex: "half" }
}

const describe = (kase: Case) => {
  const target = kase.target.length > 160 ? `${kase.target.slice(0, 157)}...` : kase.target
  return `${kase.method} ${target}`
}

const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error))

/**
 * Fuzzes every operation of the document served at `<mountUrl>/openapi.json`: each case is a request that is valid
 * as far as the schemas tell, with one thing broken. A response is a finding when it is a 5xx, breaks the document,
 * reveals internals (stack, SQL, source path, `_tag`), or, when it is an error, repeats an input value.
 */
export const run = async (options: RunOptions): Promise<Summary> => {
  const { target } = options
  const started = performance.now()
  const documentResponse = await target.fetch(`${target.mountUrl}/openapi.json`)
  if (documentResponse.status !== 200) throw new Error(`GET /openapi.json answered ${documentResponse.status}`)
  const document = (await documentResponse.json()) as Record<string, unknown>
  const api = Operations.fromDocument(document)
  const contract = contractOf(document)
  const pool = new IdPool()
  const prefix = new URL(target.mountUrl).pathname.replace(/\/+$/, "")

  pool.harvest(target.seededIds ?? [])
  const answers = new Map<string, Readonly<Record<string, unknown>>>()
  const seedContext: SeedContext = {
    existing: (type, pick = 0) => pool.existing(type, pick),
    answer: (name) => answers.get(name) ?? {}
  }
  const seeded: Array<SeedResult> = []
  for (const seed of options.seeds ?? []) {
    const path = typeof seed.path === "string" ? seed.path : seed.path(seedContext)
    const response = await target.fetch(`${target.mountUrl}${path}`, {
      method: seed.method,
      headers: {
        authorization: target.basic,
        "content-type": "application/json",
        ...(seed.idempotencyKey === true ? { "idempotency-key": globalThis.crypto.randomUUID() } : {})
      },
      ...(seed.body === undefined ? {} : { body: JSON.stringify(seed.body(seedContext.existing, seedContext)) })
    })
    seeded.push({ method: seed.method, path, status: response.status })
    if (response.ok) {
      const body = (await response.json()) as Readonly<Record<string, unknown>>
      if (seed.name !== undefined) answers.set(seed.name, body)
      pool.harvest(body)
    }
  }
  // The tokens the fuzz authenticates with are never a case's "existing id": deleting one would turn every later
  // case into a 401.
  const ownClientIds = new Set(
    [target.basic, target.viewBasic].flatMap((basic) =>
      basic === undefined ? [] : [atob(basic.replace(/^Basic /, "")).split(":")[0]]
    )
  )
  const tokenList = api.operations.find(
    (operation) => operation.method === "GET" && operation.template.endsWith("/tokens")
  )
  for (const id of target.protectedIds ?? []) pool.protect(id)
  if (tokenList !== undefined) {
    const response = await target.fetch(`${target.mountUrl}${tokenList.template}?limit=100`, {
      headers: { authorization: target.basic }
    })
    if (response.ok) {
      const page = (await response.json()) as { data?: ReadonlyArray<{ id?: string; clientId?: string }> }
      for (const token of page.data ?? []) {
        if (token.id !== undefined && ownClientIds.has(token.clientId)) pool.protect(token.id)
      }
    }
  }
  for (const operation of api.operations) {
    if (operation.method !== "GET" || operation.template.includes("{")) continue
    const response = await target.fetch(`${target.mountUrl}${operation.template}`, {
      headers: operation.secured
        ? { authorization: operation.bearer ? (target.agentBearer ?? target.basic) : target.basic }
        : {}
    })
    if (response.ok) pool.harvest(await response.json())
  }

  const summary: Summary = {
    seed: options.seed,
    seeded,
    requests: 0,
    unsendable: 0,
    statuses: {},
    counts: { "5xx": 0, contract: 0, leak: 0, echo: 0, transport: 0 },
    byOperation: {},
    findings: [],
    durationMs: 0
  }
  const keep = options.keepFindings ?? 200
  const planAt = plans(api, options.seed)
  const bearerOperations = new Set(
    api.operations.filter((operation) => operation.bearer).map((operation) => operation.operationId)
  )

  const record = (kind: FindingKind, index: number, kase: Case, status: number, detail: string) => {
    const finding: Finding = {
      kind,
      index,
      operation: kase.operation,
      mutation: kase.mutation,
      request: describe(kase),
      status,
      detail
    }
    summary.counts[kind]++
    summary.byOperation[kase.operation]!.findings++
    if (summary.findings.length < keep) summary.findings.push(finding)
    options.onFinding?.(finding)
  }

  const send = async (index: number) => {
    const kase = planAt(index)(pool)
    const headers = new Headers()
    let request: Request
    try {
      for (const [name, value] of Object.entries(kase.headers)) headers.set(name, value)
      const agent = bearerOperations.has(kase.operation) ? target.agentBearer : undefined
      const authorization =
        kase.auth === "full"
          ? (agent ?? target.basic)
          : kase.auth === "view"
            ? (agent ?? target.viewBasic ?? target.basic)
            : kase.auth === "none"
              ? undefined
              : kase.auth.header
      if (authorization !== undefined) headers.set("authorization", authorization)
      const { length, ...body } = bodyOf(kase.body)
      if (length !== undefined && target.inProcess) headers.set("content-length", String(length))
      request = new Request(`${target.mountUrl}${kase.target}`, {
        method: kase.method,
        headers,
        ...body,
        signal: AbortSignal.timeout(60_000)
      })
    } catch {
      summary.unsendable++
      return
    }
    const counts = (summary.byOperation[kase.operation] ??= { requests: 0, statuses: {}, findings: 0 })
    summary.requests++
    counts.requests++
    let response: Response
    let text: string
    try {
      response = await target.fetch(request)
      text = await response.text()
    } catch (error) {
      summary.statuses["transport"] = (summary.statuses["transport"] ?? 0) + 1
      counts.statuses["transport"] = (counts.statuses["transport"] ?? 0) + 1
      record("transport", index, kase, 0, errorText(error))
      return
    }
    const status = response.status
    options.onExchange?.(kase, status, text)
    summary.statuses[status] = (summary.statuses[status] ?? 0) + 1
    counts.statuses[status] = (counts.statuses[status] ?? 0) + 1
    if (status >= 500) record("5xx", index, kase, status, text.slice(0, 300))
    const url = new URL(request.url)
    // A HEAD is answered as its GET without the body, which the document cannot describe: only its status counts.
    if (request.method !== "HEAD")
      try {
        contract.verify({
          method: request.method,
          path: url.pathname.slice(prefix.length) || "/",
          status,
          contentType: response.headers.get("content-type"),
          body: text
        })
      } catch (error) {
        if (!(error instanceof ContractViolation)) throw error
        record("contract", index, kase, status, error.message.split("\n").slice(2).join(" | ").slice(0, 400))
      }
    const leaked = leaksIn(text, status, kase.inputs)
    if (leaked.length > 0) record("leak", index, kase, status, `${leaked.join(", ")}: ${text.slice(0, 300)}`)
    if (status >= 300) {
      const echoed = echoesIn(text, kase.inputs, api.literals)
      if (echoed.length > 0) record("echo", index, kase, status, echoed.join("; "))
    } else if (text !== "") {
      try {
        pool.harvest(JSON.parse(text))
      } catch {
        // a 2xx that is not JSON is a contract finding already
      }
    }
  }

  if (options.only !== undefined) await send(options.only)
  else {
    let next = 0
    const worker = async () => {
      while (next < options.requests) await send(next++)
    }
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker))
  }
  summary.durationMs = Math.round(performance.now() - started)
  return summary
}

/** The summary as text: requests, statuses, findings by kind, per operation, then the first findings. */
export const format = (summary: Summary, findingsShown = 30): string => {
  const statuses = Object.entries(summary.statuses)
    .map(([status, count]) => `${status}: ${count}`)
    .join(", ")
  const lines = [
    `fuzz seed ${summary.seed}: ${summary.requests} requests in ${(summary.durationMs / 1000).toFixed(1)} s` +
      (summary.unsendable > 0 ? ` (${summary.unsendable} cases not sendable by fetch, skipped)` : ""),
    `statuses   ${statuses}`,
    ...summary.seeded
      .filter((seeded) => seeded.status >= 300)
      .map((seeded) => `seed failed ${seeded.method} ${seeded.path}: ${seeded.status}`),
    `5xx ${summary.counts["5xx"]}, leaks ${summary.counts.leak}, echoes ${summary.counts.echo}, ` +
      `contract ${summary.counts.contract}, transport ${summary.counts.transport}`,
    "by operation:"
  ]
  for (const [operation, counts] of Object.entries(summary.byOperation).sort(([a], [b]) => a.localeCompare(b))) {
    const byStatus = Object.entries(counts.statuses)
      .map(([status, count]) => `${status}:${count}`)
      .join(" ")
    lines.push(
      `  ${operation.padEnd(38)} ${String(counts.requests).padStart(6)}  findings ${counts.findings}  ${byStatus}`
    )
  }
  for (const finding of summary.findings.slice(0, findingsShown)) {
    lines.push(
      `[${finding.kind}] #${finding.index} ${finding.operation} (${finding.mutation}) ${finding.request} -> ${finding.status}: ${finding.detail}`
    )
  }
  return lines.join("\n")
}
