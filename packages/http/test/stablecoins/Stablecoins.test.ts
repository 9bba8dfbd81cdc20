import { expect, it } from "vitest"
import { describeOverHttp } from "../support/OverHttp.js"
import { stablecoinsOf } from "./StablecoinFixtures.js"

/*
 * Stablecoin issuance over HTTP on every storage adapter (docs/stablecoins.md), every response checked against the
 * OpenAPI document: provider account links, registration and its link selection, mints and burns with the required
 * Idempotency-Key (missing, replayed, reused), every refusal, 50 concurrent burns against a supply for 10, the
 * webhooks, and the ledger's invariants. The tests share one platform and run in order: the first ones see no link.
 */
describeOverHttp("stablecoins over HTTP", {}, (api) => {
  const t = () => stablecoinsOf(api)
  const missingId = (type: string) => `${type}:${globalThis.crypto.randomUUID()}`

  it("refuses registration without a link (404), links an account (201) and refuses bad credentials (400)", async () => {
    const { link, register, send } = t()
    const none = await register()
    expect(none.status).toBe(404)
    expect(none.body.code).toBe("STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND")

    const noKey = await send(
      "POST",
      "/stablecoin-provider-accounts",
      { provider: "BRALE", apiClientId: "client", apiClientSecret: "secret" },
      { key: null }
    )
    expect(noKey.status).toBe(400)
    expect(noKey.body.code).toBe("INVALID_INPUT")
    expect(noKey.body.details.errors.map((error: { field: string }) => error.field)).toEqual(["idempotency-key"])

    const linked = await link()
    expect(linked.status).toBe(201)
    expect(linked.body).toMatchObject({
      provider: "BRALE",
      providerEnvironment: "SANDBOX",
      status: "ACTIVE"
    })
    expect(linked.body.id).toMatch(/^StablecoinProviderAccount:/)
    expect(linked.body.providerAccountId).toMatch(/^sandbox_[0-9a-f]{16}$/)
    expect(linked.body.lastVerifiedAt).toBeDefined()
    expect(JSON.stringify(linked.body)).not.toContain("provider_secret_456")

    const refused = await link(undefined, "sandbox_invalid_secret")
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe("STABLECOIN_PROVIDER_ACCOUNT_INVALID")
    const invalidInput = await send("POST", "/stablecoin-provider-accounts", { provider: "COINBASE" })
    expect(invalidInput.status).toBe(400)
    expect(invalidInput.body.code).toBe("INVALID_INPUT")

    const got = await send("GET", `/stablecoin-provider-accounts/${linked.body.id}`)
    expect(got.status).toBe(200)
    expect(got.body).toEqual(linked.body)
    const unknown = await send("GET", `/stablecoin-provider-accounts/${missingId("StablecoinProviderAccount")}`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe("STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND")
    expect((await send("GET", "/stablecoin-provider-accounts/nope")).status).toBe(400)
    const otherPlatform = await send("GET", `/stablecoin-provider-accounts/${linked.body.id}`, undefined, {
      auth: api.otherPlatformBasic
    })
    expect(otherPlatform.status).toBe(404)
  })

  it("registers against the only active link, then needs a selection once two are active", async () => {
    const { link, register, send } = t()
    const only = await register("ACME")
    expect(only.status).toBe(201)
    expect(only.body).toMatchObject({
      name: "ACME Sandbox Dollar",
      symbol: "ACME",
      baseCurrency: "USD",
      network: "SPARK_MAINNET",
      decimals: 6,
      issuanceStatus: "PROVISIONED",
      gridOperationsStatus: "NOT_ENABLED",
      provider: "BRALE",
      providerEnvironment: "SANDBOX",
      providerTokenIdentifier: "ACME"
    })
    expect(only.body.currency).toBeUndefined()

    const second = await link("acct_second")
    expect(second.status).toBe(201)
    const ambiguous = await register("ACME")
    expect(ambiguous.status).toBe(400)
    expect(ambiguous.body.code).toBe("STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED")
    const chosen = await register("BETA", second.body.id)
    expect(chosen.status).toBe(201)
    expect(chosen.body.stablecoinProviderAccountId).toBe(second.body.id)

    const revoked = await link("acct_revoked")
    expect(revoked.body.status).toBe("REVOKED")
    const invalid = await link("acct_invalid")
    expect(invalid.body.status).toBe("INVALID")
    expect((await register("ACME", revoked.body.id)).body.code).toBe("STABLECOIN_PROVIDER_ACCOUNT_REVOKED")
    expect((await register("ACME", invalid.body.id)).body.code).toBe("STABLECOIN_PROVIDER_ACCOUNT_INVALID")
    const unknown = await register("ACME", missingId("StablecoinProviderAccount"))
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe("STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND")
    const badId = await register("ACME", "StablecoinProviderAccount:nope")
    expect(badId.status).toBe(400)
    expect(badId.body.details.errors[0].field).toBe("stablecoinProviderAccountId")

    const links = await send("GET", "/stablecoin-provider-accounts?status=ACTIVE&limit=1")
    expect(links.status).toBe(200)
    expect(links.body.data).toHaveLength(1)
    expect(links.body.hasMore).toBe(true)
    const rest = await send("GET", `/stablecoin-provider-accounts?status=ACTIVE&cursor=${links.body.nextCursor}`)
    expect([...links.body.data, ...rest.body.data].map((row: { id: string }) => row.id).sort()).toEqual(
      [second.body.id, (await send("GET", "/stablecoin-provider-accounts?status=ACTIVE")).body.data[1].id].sort()
    )
    expect((await send("GET", "/stablecoin-provider-accounts?status=REVOKED")).body.data).toEqual([revoked.body])

    const got = await send("GET", `/stablecoins/${chosen.body.id}`)
    expect(got.body).toEqual(chosen.body)
    expect((await send("GET", `/stablecoins/${missingId("Stablecoin")}`)).body.code).toBe("NOT_FOUND")
    const listed = await send("GET", "/stablecoins?provider=BRALE&issuanceStatus=PROVISIONED")
    expect(listed.body.data.map((row: { id: string }) => row.id)).toEqual([chosen.body.id, only.body.id])
    expect((await send("GET", "/stablecoins?gridOperationsStatus=ENABLED")).body.data).toEqual([])
    expect((await send("GET", "/stablecoins?issuanceStatus=NOPE")).status).toBe(400)
  })

  it("answers 409 CONFLICT to a second registration of one token, through either link, recording nothing", async () => {
    const { send } = t()
    const active = await send("GET", "/stablecoin-provider-accounts?status=ACTIVE")
    const [first, second] = active.body.data as ReadonlyArray<{ readonly id: string }>
    const token = `btkn1${globalThis.crypto.randomUUID().replaceAll("-", "")}`
    const body = (stablecoinProviderAccountId: string | undefined, providerTokenIdentifier = "DELTA") => ({
      providerTokenIdentifier,
      networkTokenIdentifier: token,
      network: "SPARK_MAINNET",
      stablecoinProviderAccountId
    })
    const key = globalThis.crypto.randomUUID()
    const made = await send("POST", "/stablecoins", body(first?.id), { key })
    expect(made.status).toBe(201)
    const replay = await send("POST", "/stablecoins", body(first?.id), { key })
    expect([replay.status, replay.body.id]).toEqual([201, made.body.id])
    for (const again of [body(first?.id), body(second?.id, "DELTA_TWO")]) {
      const refused = await send("POST", "/stablecoins", again)
      expect(refused.status).toBe(409)
      expect(refused.body).toMatchObject({
        code: "CONFLICT",
        details: { rule: "stablecoin_already_registered", network: "SPARK_MAINNET", networkTokenIdentifier: token }
      })
    }
    const listed = await send("GET", "/stablecoins?limit=100")
    expect(
      listed.body.data.filter((row: { networkTokenIdentifier: string }) => row.networkTokenIdentifier === token)
    ).toHaveLength(1)
    const elsewhere = await api.request(`/2025-10-13/stablecoin-provider-accounts`, {
      method: "POST",
      auth: api.otherPlatformBasic,
      headers: { "idempotency-key": globalThis.crypto.randomUUID() },
      body: JSON.stringify({ provider: "BRALE", apiClientId: "client_other", apiClientSecret: "provider_secret_456" })
    })
    expect(elsewhere.status).toBe(201)
    const theirs = await api.request(`/2025-10-13/stablecoins`, {
      method: "POST",
      auth: api.otherPlatformBasic,
      headers: { "idempotency-key": globalThis.crypto.randomUUID() },
      body: JSON.stringify(body(undefined))
    })
    expect(theirs.status).toBe(201)
  })

  // A stablecoin of the second link (the platform has two active links from here on).
  const newCoin = async (token = "GAMMA") => {
    const { register, send } = t()
    const active = await send("GET", "/stablecoin-provider-accounts?status=ACTIVE")
    const made = await register(token, active.body.data[0].id)
    expect(made.status).toBe(201)
    return made.body.id as string
  }

  it("mints (201, COMPLETED) crediting the supply, replays the first answer, refuses a reused key", async () => {
    const { checkLedger, externalAccount, mintBody, send, supply, webhooksOf } = t()
    const coin = await newCoin()
    const wallet = await externalAccount("spark")
    const key = globalThis.crypto.randomUUID()
    const body = mintBody("12340000", wallet, { description: "Initial program funding mint" })
    const minted = await send("POST", `/stablecoins/${coin}/mints`, body, { key })
    expect(minted.status).toBe(201)
    expect(minted.body).toMatchObject({
      stablecoinId: coin,
      operationType: "MINT",
      status: "COMPLETED",
      amount: "12340000",
      provider: "BRALE",
      providerEnvironment: "SANDBOX",
      fundingSource: { type: "WIRE" },
      destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: wallet },
      providerStatus: "complete",
      description: "Initial program funding mint"
    })
    expect((await supply(coin)).posted).toBe(1234n)

    const replay = await send("POST", `/stablecoins/${coin}/mints`, body, { key })
    expect(replay.status).toBe(201)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(minted.body)
    const reused = await send("POST", `/stablecoins/${coin}/mints`, mintBody("10000", wallet), { key })
    expect(reused.status).toBe(409)
    expect(reused.body.details.rule).toBe("idempotency_key_reused")
    expect((await supply(coin)).posted).toBe(1234n)

    const noKey = await send("POST", `/stablecoins/${coin}/mints`, body, { key: null })
    expect(noKey.status).toBe(400)
    expect(noKey.body.details.errors.map((error: { field: string }) => error.field)).toEqual(["idempotency-key"])

    const operations = await send("GET", `/stablecoins/${coin}/operations`)
    expect(operations.body.data).toEqual([minted.body])
    expect((await send("GET", `/stablecoin-operations/${minted.body.id}`)).body).toEqual(minted.body)
    expect(await webhooksOf(minted.body.id)).toEqual(["STABLECOIN_OPERATION.COMPLETED"])
    await checkLedger(coin)
  })

  it("keeps a pending mint out of the supply until its settlement job completes it, once", async () => {
    const { checkLedger, externalAccount, mintBody, send, settle, supply, webhooksOf } = t()
    const coin = await newCoin("ETA")
    const wallet = await externalAccount("spark")
    const pending = await send(
      "POST",
      `/stablecoins/${coin}/mints`,
      mintBody("5000000", wallet, { description: "SANDBOX_PROVIDER_PENDING" })
    )
    expect(pending.status).toBe(201)
    expect(pending.body).toMatchObject({ status: "PENDING", providerStatus: "pending" })
    expect((await supply(coin)).posted).toBe(0n)

    expect(await settle(pending.body.id)).toBe(1)
    const settled = await send("GET", `/stablecoin-operations/${pending.body.id}`)
    expect(settled.body).toMatchObject({ id: pending.body.id, status: "COMPLETED", providerStatus: "complete" })
    expect((await supply(coin)).posted).toBe(500n)
    expect(await webhooksOf(pending.body.id)).toEqual([
      "STABLECOIN_OPERATION.PENDING",
      "STABLECOIN_OPERATION.COMPLETED"
    ])
    expect(await settle(pending.body.id)).toBe(0)
    expect((await supply(coin)).posted).toBe(500n)
    await checkLedger(coin)
  })

  it("reverses a pending burn whose settlement fails: FAILED, the supply restored, its webhook, once", async () => {
    const { burnBody, checkLedger, externalAccount, mintBody, send, settle, supply, webhooksOf } = t()
    const coin = await newCoin("THETA")
    const wallet = await externalAccount("spark")
    const bank = await externalAccount("bank")
    expect((await send("POST", `/stablecoins/${coin}/mints`, mintBody("3000000", wallet))).status).toBe(201)
    expect((await supply(coin)).posted).toBe(300n)

    const burn = await send(
      "POST",
      `/stablecoins/${coin}/burns`,
      burnBody("1000000", bank, { description: "SANDBOX_PROVIDER_PENDING_FAILS" })
    )
    expect(burn.status).toBe(201)
    expect(burn.body).toMatchObject({ operationType: "BURN", status: "PENDING", providerStatus: "pending" })
    // Taken by the provider: its coins are out of circulation until it settles.
    expect((await supply(coin)).posted).toBe(200n)

    expect(await settle(burn.body.id)).toBe(1)
    const failed = await send("GET", `/stablecoin-operations/${burn.body.id}`)
    expect(failed.body).toMatchObject({
      id: burn.body.id,
      status: "FAILED",
      providerStatus: "failed",
      failureReason: "PROVIDER_SETTLEMENT_FAILED"
    })
    expect((await supply(coin)).posted).toBe(300n)
    expect(await webhooksOf(burn.body.id)).toEqual(["STABLECOIN_OPERATION.PENDING", "STABLECOIN_OPERATION.FAILED"])
    expect(await settle(burn.body.id)).toBe(0)
    expect((await supply(coin)).posted).toBe(300n)
    await checkLedger(coin)

    // A mint that fails at settlement credits nothing.
    const mint = await send(
      "POST",
      `/stablecoins/${coin}/mints`,
      mintBody("1000000", wallet, { description: "SANDBOX_PROVIDER_PENDING_FAILS" })
    )
    expect(mint.body.status).toBe("PENDING")
    expect(await settle(mint.body.id)).toBe(1)
    expect((await send("GET", `/stablecoin-operations/${mint.body.id}`)).body.status).toBe("FAILED")
    expect((await supply(coin)).posted).toBe(300n)
    await checkLedger(coin)
  })

  it("refuses every invalid mint and burn with its code, recording nothing", async () => {
    const { burnBody, checkLedger, externalAccount, mintBody, register, send, supply } = t()
    const coin = await newCoin("DELTA")
    const wallet = await externalAccount("spark")
    const bank = await externalAccount("bank")
    const refusal = async (path: string, body: unknown) => {
      const answer = await send("POST", `/stablecoins/${coin}/${path}`, body)
      return { status: answer.status, code: answer.body.code, details: answer.body.details }
    }
    expect(await refusal("mints", mintBody("1000001", wallet))).toMatchObject({
      status: 400,
      code: "STABLECOIN_AMOUNT_NOT_REPRESENTABLE",
      details: { rule: "not_whole_base_unit", decimals: 6, baseCurrency: "USD" }
    })
    expect(await refusal("mints", mintBody("0", wallet))).toMatchObject({
      status: 400,
      code: "STABLECOIN_AMOUNT_NOT_REPRESENTABLE"
    })
    expect(await refusal("mints", mintBody("-5", wallet))).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect(
      await refusal("mints", mintBody("10000", wallet, { destination: { type: "GRID_INTERNAL_ACCOUNT" } }))
    ).toMatchObject({ status: 400, code: "STABLECOIN_OPERATION_NOT_SUPPORTED" })
    expect(
      await refusal("mints", mintBody("10000", wallet, { fundingSource: { type: "PROVIDER_INTERNAL_BALANCE" } }))
    ).toMatchObject({ status: 400, code: "STABLECOIN_OPERATION_NOT_SUPPORTED" })
    expect(await refusal("mints", mintBody("10000", wallet, { fundingSource: { type: "ACH_DEBIT" } }))).toMatchObject({
      status: 400,
      code: "INVALID_INPUT"
    })
    expect(await refusal("mints", mintBody("10000", bank))).toMatchObject({
      status: 400,
      code: "STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED",
      details: { rule: "spark_wallet_required" }
    })
    expect(await refusal("mints", mintBody("10000", missingId("ExternalAccount")))).toMatchObject({
      status: 404,
      code: "NOT_FOUND"
    })
    expect(
      await refusal("mints", mintBody("10000", wallet, { description: "SANDBOX_PROVIDER_UNAVAILABLE" }))
    ).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" })
    expect(await refusal("burns", burnBody("10000", bank))).toMatchObject({
      status: 400,
      code: "INSUFFICIENT_FUNDS"
    })
    expect(
      await refusal("burns", burnBody("10000", bank, { source: { type: "GRID_INTERNAL_ACCOUNT" } }))
    ).toMatchObject({ status: 400, code: "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED" })
    expect(await refusal("burns", burnBody("10000", wallet))).toMatchObject({
      status: 400,
      code: "STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED",
      details: { rule: "bank_account_required" }
    })
    expect(
      (await send("POST", `/stablecoins/${missingId("Stablecoin")}/mints`, mintBody("10000", wallet))).body.code
    ).toBe("NOT_FOUND")
    expect((await send("GET", `/stablecoins/${missingId("Stablecoin")}/operations`)).status).toBe(404)
    expect((await send("GET", `/stablecoin-operations/${missingId("StablecoinOperation")}`)).status).toBe(404)

    const active = await send("GET", "/stablecoin-provider-accounts?status=ACTIVE")
    const pending = await register("EPSILON_PROVISIONING", active.body.data[0].id)
    expect(pending.body.issuanceStatus).toBe("PROVISIONING")
    const notProvisioned = await send("POST", `/stablecoins/${pending.body.id}/mints`, mintBody("10000", wallet))
    expect(notProvisioned.status).toBe(400)
    expect(notProvisioned.body.code).toBe("STABLECOIN_NOT_PROVISIONED")

    expect((await send("GET", `/stablecoins/${coin}/operations`)).body.data).toEqual([])
    expect((await supply(coin)).posted).toBe(0n)

    const failed = await send(
      "POST",
      `/stablecoins/${coin}/mints`,
      mintBody("10000", wallet, {
        description: "SANDBOX_PROVIDER_FAILED"
      })
    )
    expect(failed.status).toBe(201)
    expect(failed.body).toMatchObject({ status: "FAILED", failureReason: "PROVIDER_TRANSFER_FAILED" })
    expect((await supply(coin)).posted).toBe(0n)

    const viewer = await api.tokenWith(["VIEW"])
    const denied = await send("POST", `/stablecoins/${coin}/mints`, mintBody("10000", wallet), { auth: viewer })
    expect(denied.status).toBe(403)
    expect((await send("GET", `/stablecoins/${coin}`, undefined, { auth: viewer })).status).toBe(200)
    await checkLedger(coin)
  })

  it("lets exactly 10 of 50 concurrent burns through against a supply for 10; the ledger balances", async () => {
    const { burnBody, checkLedger, externalAccount, mintBody, send, supply } = t()
    const coin = await newCoin("ZETA")
    const wallet = await externalAccount("spark")
    const bank = await externalAccount("bank")
    expect((await send("POST", `/stablecoins/${coin}/mints`, mintBody("10000000", wallet))).status).toBe(201)
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => send("POST", `/stablecoins/${coin}/burns`, burnBody("1000000", bank)))
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(10)
    expect(statuses.filter((status) => status === 400)).toHaveLength(40)
    for (const answer of answers.filter((each) => each.status === 400)) {
      expect(answer.body.code).toBe("INSUFFICIENT_FUNDS")
    }
    expect((await supply(coin)).posted).toBe(0n)

    const first = await send("GET", `/stablecoins/${coin}/operations?limit=4`)
    expect(first.body.data).toHaveLength(4)
    const ids: Array<string> = first.body.data.map((row: { id: string }) => row.id)
    let cursor: string | undefined = first.body.nextCursor
    while (cursor !== undefined) {
      const next = await send("GET", `/stablecoins/${coin}/operations?limit=4&cursor=${encodeURIComponent(cursor)}`)
      ids.push(...next.body.data.map((row: { id: string }) => row.id))
      cursor = next.body.nextCursor
    }
    expect(new Set(ids).size).toBe(11)
    await checkLedger(coin)
  }, 60_000)
})
