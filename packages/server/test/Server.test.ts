import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted, Schema } from "effect"
import { Customer, CustomerRequest, ExternalAccountRequest } from "@payrail/core"
import { PayrailApi } from "@payrail/api"
import { checkedFetch, ContractViolation } from "@payrail/http/test/support/OpenApiContract"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { startServer } from "./ServerProcess.js"

const api = "/2025-10-13"

/** What a new user does with the printed credentials: create, read, list two pages, patch, and get errors right. */
const exerciseCustomers = async (baseUrl: string, auth: string) => {
  const checked = checkedFetch(fetch, baseUrl)
  const call = (path: string, init: RequestInit = {}) =>
    checked(`${baseUrl}${api}${path}`, {
      ...init,
      headers: { authorization: auth, "content-type": "application/json", ...(init.headers ?? {}) }
    })
  const ids: Array<string> = []
  for (const name of ["Ada Lovelace", "Grace Hopper", "Alan Turing"]) {
    const created = await call("/customers", {
      method: "POST",
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: name })
    })
    expect(created.status).toBe(201)
    ids.push((await created.json()).id)
  }
  const first = await (await call("/customers?limit=2")).json()
  expect(first).toMatchObject({ hasMore: true })
  const second = await (await call(`/customers?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).json()
  const listed = [...first.data, ...second.data].map((customer: { id: string }) => customer.id)
  expect(listed).toEqual(expect.arrayContaining(ids))
  const patched = await call(`/customers/${ids[0]}`, {
    method: "PATCH",
    body: JSON.stringify({ customerType: "INDIVIDUAL", email: "ada@example.com" })
  })
  expect(await patched.json()).toMatchObject({ id: ids[0], email: "ada@example.com" })
  const invalid = await call("/customers", {
    method: "POST",
    body: JSON.stringify({ customerType: "INDIVIDUAL", email: "nope", birthDate: "2020-02-30", nationality: "ZZ" })
  })
  expect(invalid.status).toBe(400)
  expect((await invalid.json()).details.errors.map((error: { field: string }) => error.field).sort()).toEqual([
    "birthDate",
    "email",
    "nationality"
  ])
  const wrongPassword = await checked(`${baseUrl}${api}/customers`, {
    headers: { authorization: `Basic ${Buffer.from("pk_wrong:sk_wrong").toString("base64")}` }
  })
  expect(wrongPassword.status).toBe(401)
  expect(await wrongPassword.json()).toMatchObject({ code: "UNAUTHORIZED" })
  return ids
}

/**
 * What an integrator writing TypeScript does: the typed client made from the contract alone, over a real socket,
 * its responses also checked against the served document.
 */
const exerciseTypedClient = (baseUrl: string, auth: string) =>
  Effect.gen(function* () {
    const client = yield* HttpApiClient.make(PayrailApi.PayrailApi, {
      baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("authorization", auth))
    })
    const created = yield* client.customers.create({
      payload: Schema.decodeUnknownSync(CustomerRequest.CreateIndividualCustomer)({
        customerType: "INDIVIDUAL",
        fullName: "Ada Lovelace",
        email: "ada@example.com"
      })
    })
    const read = yield* client.customers.get({ path: { customerId: created.id } })
    const listed = yield* client.customers.list({ urlParams: { limit: 10 } })
    const updated = yield* client.customers.update({
      path: { customerId: created.id },
      headers: {},
      payload: Schema.decodeUnknownSync(CustomerRequest.UpdateIndividualCustomer)({
        customerType: "INDIVIDUAL",
        fullName: "Ada King"
      })
    })
    const external = yield* client.externalAccounts.createForCustomers({
      payload: Schema.decodeUnknownSync(ExternalAccountRequest.CreateExternalAccountRequest)({
        customerId: created.id,
        currency: "USD",
        accountInfo: {
          accountType: "USD_ACCOUNT",
          accountNumber: "123456789",
          routingNumber: "021000021",
          beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada King" }
        }
      })
    })
    const externals = yield* client.externalAccounts.listForCustomers({ urlParams: { customerId: created.id } })
    const internals = yield* client.internalAccounts.list({ urlParams: { customerId: created.id } })
    const missing = yield* Effect.flip(
      client.customers.get({ path: { customerId: Customer.CustomerId.make(`Customer:${crypto.randomUUID()}`) } })
    )
    return { created, read, listed, updated, external, externals, internals, missing }
  }).pipe(
    // A response that breaks the contract makes the checked fetch reject, which the client reports as a transport
    // error: show the violation itself.
    Effect.mapError((error) =>
      error instanceof HttpClientError.RequestError && error.cause instanceof ContractViolation ? error.cause : error
    ),
    Effect.provide(FetchHttpClient.layer),
    Effect.provide(Layer.succeed(FetchHttpClient.Fetch, checkedFetch(fetch, baseUrl))),
    Effect.runPromise
  )

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

describe("reference server on embedded PGlite", () => {
  it("bootstraps a sandbox platform, serves customers, shuts down cleanly and keeps the data across a restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-server-"))
    temporaryDirectories.push(dataDir)
    const first = await startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "pglite" })
    expect(first.output()).toContain("(created now)")
    expect((await checkedFetch(fetch, first.baseUrl)(`${first.baseUrl}/ready`)).status).toBe(200)
    const ids = await exerciseCustomers(first.baseUrl, first.auth)
    expect((await stat(join(dataDir, "sandbox-credentials.json"))).mode & 0o777).toBe(0o600)
    expect(await first.stop()).toBe(0)

    const second = await startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "pglite" })
    const checked = checkedFetch(fetch, second.baseUrl)
    try {
      expect(second.output()).not.toContain("(created now)")
      expect(second.auth).toBe(first.auth)
      for (const id of ids) {
        const response = await checked(`${second.baseUrl}${api}/customers/${id}`, {
          headers: { authorization: second.auth }
        })
        expect(response.status).toBe(200)
      }
    } finally {
      expect(await second.stop()).toBe(0)
    }
  }, 300_000)
})

describe("typed client against the reference server", () => {
  it("creates, reads, lists and updates a customer and creates and lists its accounts with HttpApiClient", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-client-"))
    temporaryDirectories.push(dataDir)
    const server = await startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory" })
    try {
      const result = await exerciseTypedClient(server.baseUrl, server.auth)
      expect(result.created).toMatchObject({
        customerType: "INDIVIDUAL",
        fullName: "Ada Lovelace",
        email: "ada@example.com"
      })
      expect(result.read).toEqual(result.created)
      expect(result.listed.data.map((customer) => customer.id)).toContain(result.created.id)
      expect(result.updated).toMatchObject({ id: result.created.id, fullName: "Ada King", email: "ada@example.com" })
      expect(result.external).toMatchObject({ customerId: result.created.id, currency: "USD", status: "ACTIVE" })
      expect(result.externals.data.map((account) => account.id)).toEqual([result.external.id])
      expect(result.internals.data.map((account) => account.customerId)).toEqual(
        result.internals.data.map(() => result.created.id)
      )
      expect(result.internals.data.length).toBeGreaterThan(0)
      expect(result.missing).toMatchObject({ _tag: "CustomerNotFound", code: "USER_NOT_FOUND" })
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 300_000)
})

const databaseUrl = process.env.DATABASE_URL

describe.skipIf(databaseUrl === undefined)("reference server on PostgreSQL (DATABASE_URL)", () => {
  it("serves customers and keeps them across a restart", async () => {
    const name = `payrail_server_${crypto.randomUUID().replace(/-/g, "")}`
    const admin = (statement: string) =>
      Effect.runPromise(
        Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe(statement)).pipe(
          Effect.provide(PgClient.layer({ url: Redacted.make(databaseUrl ?? "") })),
          Effect.scoped
        )
      )
    await admin(`CREATE DATABASE ${name}`)
    const url = new URL(databaseUrl ?? "")
    url.pathname = `/${name}`
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-server-pg-"))
    temporaryDirectories.push(dataDir)
    try {
      const env = { DATABASE_URL: url.toString(), PAYRAIL_DATA_DIR: dataDir }
      const first = await startServer(env)
      expect(first.output()).toContain("PostgreSQL")
      expect(first.output()).not.toContain(url.toString())
      const ids = await exerciseCustomers(first.baseUrl, first.auth)
      expect(await first.stop()).toBe(0)
      const second = await startServer(env)
      const checked = checkedFetch(fetch, second.baseUrl)
      try {
        const page = await (
          await checked(`${second.baseUrl}${api}/customers?limit=100`, { headers: { authorization: second.auth } })
        ).json()
        expect(page.data.map((customer: { id: string }) => customer.id)).toEqual(expect.arrayContaining(ids))
      } finally {
        expect(await second.stop()).toBe(0)
      }
    } finally {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  }, 300_000)
})
