/**
 * The little the example needs to call Payrail's API with plain `fetch`: the base URL and credentials from the
 * environment, JSON in and out, and an error carrying the API's error body when a call is refused.
 */

/** The API version every path is under. */
export const basePath = "/2025-10-13"

/** The error body of a refused call (`code`, `message`, `details`), as the API answers it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { readonly code?: string; readonly message?: string; readonly details?: unknown },
    what: string
  ) {
    super(`${what} answered ${status} ${body.code ?? ""}: ${body.message ?? JSON.stringify(body)}`)
  }
}

/** A page of a list endpoint. */
export interface ListPage<A> {
  readonly data: ReadonlyArray<A>
  readonly hasMore: boolean
  readonly nextCursor?: string
}

/** The fields of a Quote the example reads. */
export interface Quote {
  readonly id: string
  readonly status: string
  readonly totalSendingAmount: number
  readonly sendingCurrency: { readonly code: string; readonly decimals: number }
  readonly transactionId: string
}

/** The fields of an AgentAction the example reads. */
export interface AgentAction {
  readonly id: string
  readonly agentId: string
  readonly status: "PENDING_APPROVAL" | "APPROVED" | "REJECTED" | "FAILED"
  readonly type: string
  readonly quote?: Quote
  readonly transaction?: { readonly id: string; readonly status: string }
  readonly failureReason?: string
  readonly expiresAt: string
}

/** A required setting from the environment; the process stops with a message saying which is missing. */
export const setting = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback
  if (value === undefined || value === "") {
    console.error(`Set ${name} (see README.md).`)
    process.exit(2)
  }
  return value
}

/** `http://127.0.0.1:8080` unless `PAYRAIL_URL` names the server (the banner's address, without the version). */
export const serverUrl = (): string => setting("PAYRAIL_URL", "http://127.0.0.1:8080").replace(/\/+$/, "")

/** The platform's HTTP Basic credentials from `PAYRAIL_CLIENT_ID` and `PAYRAIL_CLIENT_SECRET` (the banner's). */
export const platformAuthorization = (): string =>
  `Basic ${Buffer.from(`${setting("PAYRAIL_CLIENT_ID")}:${setting("PAYRAIL_CLIENT_SECRET")}`).toString("base64")}`

/** Calls the API: `authorization` as given (none for the device-code redemption), JSON body and answer. */
export const call = async <A>(
  authorization: string | undefined,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly idempotencyKey?: string } = {}
): Promise<A> => {
  const url = `${serverUrl()}${basePath}${path}`
  const response = await fetch(url, {
    method,
    headers: {
      accept: "application/json",
      ...(authorization === undefined ? {} : { authorization }),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.idempotencyKey === undefined ? {} : { "idempotency-key": options.idempotencyKey })
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  }).catch((cause: unknown) => {
    throw new Error(`Cannot reach ${serverUrl()} (${String(cause)}): is the server running? See README.md.`)
  })
  const text = await response.text()
  const body: unknown = text === "" ? undefined : JSON.parse(text)
  if (!response.ok) throw new ApiError(response.status, (body ?? {}) as ApiError["body"], `${method} ${path}`)
  return body as A
}

/** Every item of a list endpoint, following `nextCursor` page by page. */
export const listAll = async <A>(authorization: string, path: string): Promise<Array<A>> => {
  const items: Array<A> = []
  let cursor: string | undefined
  do {
    const separator = path.includes("?") ? "&" : "?"
    const page: ListPage<A> = await call(
      authorization,
      "GET",
      `${path}${separator}limit=100${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    )
    items.push(...page.data)
    cursor = page.hasMore ? page.nextCursor : undefined
  } while (cursor !== undefined)
  return items
}

/** An amount in the smallest unit shown in its currency, e.g. `1000` USD as `10.00 USD`. */
export const money = (amount: number, currency: { readonly code: string; readonly decimals: number }): string =>
  `${(amount / 10 ** currency.decimals).toFixed(currency.decimals)} ${currency.code}`

/** Runs a script's main, printing an API refusal (never a credential) and exiting non-zero on failure. */
export const runMain = (main: () => Promise<void>): void => {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  })
}
