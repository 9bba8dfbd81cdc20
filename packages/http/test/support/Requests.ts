import { expect } from "vitest"
import { base } from "./OverHttp.js"
import type { Harness } from "./Harness.js"

/** A JSON answer: its status, its headers and its body as parsed. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: Awaited<ReturnType<Response["json"]>>
}

/** An error answer's status, and the `code` and `details` of its body. */
export interface Refusal {
  readonly status: number
  readonly code: string
  readonly details: Record<string, unknown> & { readonly errors?: ReadonlyArray<{ readonly field: string }> }
}

/** A customer made over HTTP: its id, its UMA address, and its internal accounts by currency (no embedded wallet). */
export interface NewCustomer {
  readonly id: string
  readonly umaAddress: string
  readonly accounts: Readonly<Record<string, string>>
}

/** The requests the HTTP tests of payments send, through `api` (as its platform, or with `auth`). */
export const requestsOf = (api: Harness) => {
  const send = async (method: string, path: string, body?: unknown, auth?: string): Promise<Answer> => {
    const response = await api.request(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(auth === undefined ? {} : { auth })
    })
    return { status: response.status, headers: response.headers, body: await response.json() }
  }
  return {
    send,
    /** The status, code and details of the answer to a request that is to be refused. */
    refusal: async (method: string, path: string, body?: unknown, auth?: string): Promise<Refusal> => {
      const { status, body: answer } = await send(method, path, body, auth)
      const { code, details } = answer as Refusal
      return { status, code, details }
    },
    /** The fields an INVALID_INPUT answer's details name, in its order. */
    fieldsOf: (details: Refusal["details"]): Array<string> => (details.errors ?? []).map((error) => error.field),
    /** A new individual customer (201 expected) and its internal accounts. */
    newCustomer: async ({
      fullName = "Kim Lee",
      auth
    }: { readonly fullName?: string; readonly auth?: string } = {}) => {
      const created = await send("POST", "/customers", { customerType: "INDIVIDUAL", fullName }, auth)
      expect(created.status).toBe(201)
      const page = await send("GET", `/internal-accounts?customerId=${created.body.id}`, undefined, auth)
      const accounts: Record<string, string> = {}
      for (const account of page.body.data as ReadonlyArray<{
        readonly id: string
        readonly type: string
        readonly balance: { readonly currency: { readonly code: string } }
      }>) {
        if (account.type !== "EMBEDDED_WALLET") accounts[account.balance.currency.code] = account.id
      }
      const customer: NewCustomer = { id: created.body.id, umaAddress: created.body.umaAddress, accounts }
      return customer
    }
  }
}

/** The body of `POST /quotes` from one account to another with SENDING locked at `amount`, plus `extra` fields. */
export const quoteBody = (source: string, destination: string, amount: number, extra = {}) => ({
  source: { sourceType: "ACCOUNT", accountId: source },
  destination: { destinationType: "ACCOUNT", accountId: destination },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: amount,
  ...extra
})
