import { DateTime, Duration, Effect, Either } from "effect"
import { expect, it } from "vitest"
import { BulkImport, BulkImportJob, BulkImports, Jobs, UnitOfWork } from "@payrail/core"
import { base, describeOverHttp } from "../support/OverHttp.js"
import type { Harness } from "../support/Harness.js"

const header =
  "umaAddress,platformCustomerId,customerType,fullName,birthDate,email,businessLegalName,addressLine1,city,state," +
  "postalCode,country"

const individual = (id: string, extra: { birthDate?: string; fullName?: string } = {}) =>
  `$${id}@uma.example.com,${id},INDIVIDUAL,${extra.fullName ?? "Ada Lovelace"},${extra.birthDate ?? "1990-01-15"},` +
  `${id}@example.com,,"1 Main St, Apt 2",San Francisco,CA,94105,US`
const business = (id: string) =>
  `${id}@uma.example.com,${id},BUSINESS,,,,"Acme ""Widgets"" Inc",400 Commerce Way,Austin,TX,78701,US`

const csv = (...lines: ReadonlyArray<string>) => `${[header, ...lines].join("\r\n")}\r\n`

const formOf = (text: string, name = "customers.csv") => {
  const body = new FormData()
  body.set("file", new Blob([text], { type: "text/csv" }), name)
  return body
}

const jobsOf = (api: Harness) => {
  const upload = async (text: string, auth?: string) => {
    const response = await api.request(`${base}/customers/bulk/csv`, {
      method: "POST",
      body: formOf(text),
      ...(auth === undefined ? {} : { auth })
    })
    return { status: response.status, body: await response.json() }
  }
  const get = async (jobId: string, query = "", auth?: string) => {
    const response = await api.request(`${base}/customers/bulk/jobs/${jobId}${query}`, {
      ...(auth === undefined ? {} : { auth })
    })
    return { status: response.status, body: await response.json() }
  }
  /** Claims the due batch jobs of `jobId` (releasing the others) and runs each through the handler. */
  const runBatches = async (
    jobId: string,
    options: { readonly complete?: boolean; readonly after?: Duration.Duration } = {}
  ) => {
    const claimed = await api.run(
      Effect.gen(function* () {
        const jobs = yield* Jobs.Jobs
        // A batch's successor is due `BulkImports.batchPause` after it.
        const now = DateTime.addDuration(DateTime.unsafeNow(), options.after ?? Duration.seconds(1))
        const all = yield* jobs.claim({ limit: 1_000, now, lease: Duration.minutes(1) })
        const mine = all.filter((job) => job.job.kind === BulkImports.kind && job.job.payload["bulkImportId"] === jobId)
        for (const other of all) if (!mine.includes(other)) yield* jobs.release(other)
        return mine
      })
    )
    for (const job of claimed) {
      const result = await api.run(Effect.either(BulkImportJob.handler.handle(job.job)))
      expect(Either.isRight(result)).toBe(true)
      if (options.complete !== false) await api.run(Effect.flatMap(Jobs.Jobs, (jobs) => jobs.complete(job)))
    }
    return claimed.length
  }
  const runAll = async (jobId: string) => {
    let batches = 0
    for (let ran = await runBatches(jobId); ran > 0; ran = await runBatches(jobId)) batches += ran
    return batches
  }
  return { upload, get, runBatches, runAll }
}

describeOverHttp(
  "bulk customer import over HTTP",
  { bulkImportLimits: { maxFileBytes: 4096, batchRows: 2 } },
  (api) => {
    const { get, runAll, runBatches, upload } = jobsOf(api)
    const unique = () => `bulk-${globalThis.crypto.randomUUID().slice(0, 8)}`

    it("imports the valid rows in batches and reports every bad row with its line, field and reason", async () => {
      const taken = unique()
      const existing = await api.request(`${base}/customers`, {
        method: "POST",
        body: JSON.stringify({ customerType: "INDIVIDUAL", platformCustomerId: taken, fullName: "Kim Lee" })
      })
      expect(existing.status).toBe(201)
      const [ada, acme, bad, young] = [unique(), unique(), unique(), unique()]
      const accepted = await upload(
        csv(
          individual(ada),
          business(acme),
          individual(bad, { birthDate: "15/01/1990" }),
          "",
          individual(taken),
          individual(young, { fullName: "" })
        )
      )
      expect(accepted).toEqual({ status: 202, body: { jobId: expect.stringMatching(/^Job:/), status: "PENDING" } })
      const jobId = accepted.body.jobId as string

      const pending = await get(jobId)
      expect(pending.body).toMatchObject({
        jobId,
        status: "PENDING",
        progress: { total: 5, processed: 0, successful: 0, failed: 0 },
        errors: [],
        errorsHasMore: false
      })

      expect(await runBatches(jobId)).toBe(1)
      const halfway = await get(jobId)
      expect(halfway.body).toMatchObject({
        status: "PROCESSING",
        progress: { total: 5, processed: 2, successful: 2, failed: 0 }
      })
      expect(halfway.body.completedAt).toBeUndefined()

      expect(await runAll(jobId)).toBe(2)
      const done = await get(jobId)
      expect(done.body).toMatchObject({
        status: "COMPLETED",
        progress: { total: 5, processed: 5, successful: 2, failed: 3 },
        completedAt: expect.any(String)
      })
      const errors = done.body.errors as ReadonlyArray<BulkImport.BulkImportError>
      expect(errors.map((error) => [error.correlationId, error.code, error.details.line, error.details.field])).toEqual(
        [
          [bad, "INVALID_INPUT", 4, "birthDate"],
          [taken, "CONFLICT", 6, "platformCustomerId"],
          [young, "INVALID_INPUT", 7, "fullName"]
        ]
      )
      expect(errors[2]?.details.errors).toEqual([{ field: "fullName", message: "is required" }])

      const created = await api.request(`${base}/customers?platformCustomerId=${acme}`)
      const page = (await created.json()) as { data: ReadonlyArray<Record<string, unknown>> }
      expect(page.data).toHaveLength(1)
      expect(page.data[0]).toMatchObject({
        customerType: "BUSINESS",
        umaAddress: `$${acme}@uma.example.com`,
        businessInfo: { legalName: 'Acme "Widgets" Inc' },
        address: { line1: "400 Commerce Way", city: "Austin", state: "TX", postalCode: "78701", country: "US" }
      })
      expect(await runBatches(jobId)).toBe(0)
    })

    it("refuses taken or repeated UMA addresses and platformCustomerIds as rows one after the other would", async () => {
      const createCustomer = async (platformCustomerId: string) => {
        const response = await api.request(`${base}/customers`, {
          method: "POST",
          body: JSON.stringify({ customerType: "INDIVIDUAL", platformCustomerId, fullName: "Kim Lee" })
        })
        expect(response.status).toBe(201)
        return (await response.json()) as { id: string; umaAddress: string }
      }
      const existing = await createCustomer(unique())
      const reused = unique()
      const gone = await createCustomer(reused)
      expect((await api.request(`${base}/customers/${gone.id}`, { method: "DELETE" })).status).toBe(200)
      const [a, b, c, d, e, f, x, y, g] = [
        unique(),
        unique(),
        unique(),
        unique(),
        unique(),
        unique(),
        unique(),
        unique(),
        unique()
      ]
      const row = (id: string, uma: string, birthDate = "1990-01-15") =>
        `${uma},${id},INDIVIDUAL,Ada Lovelace,${birthDate},${id}@example.com,,1 Main St,Austin,TX,78701,US`
      const at = (id: string) => `$${id}@uma.example.com`
      // Batches of two rows: conflicts within a batch and with earlier batches are both found.
      const { body } = await upload(
        csv(
          row(a, at(a)),
          row(a, at(b)), // a's platformCustomerId, earlier in the batch
          row(c, at(a)), // a's UMA address, taken by the previous batch
          row(d, existing.umaAddress), // a customer's UMA address
          row(e, at(e)),
          row(f, at(e)), // e's UMA address, earlier in the batch
          row(x, at(a)), // refused: creates nothing, so its platformCustomerId stays free...
          row(x, at(y)), // ...for the next row
          row(g, at(a), "2999-01-01"), // invalid fields win over conflicts
          row(reused, gone.umaAddress) // a deleted customer's UMA address and platformCustomerId are free
        )
      )
      await runAll(body.jobId)
      const done = await get(body.jobId)
      expect(done.body.progress).toEqual({ total: 10, processed: 10, successful: 4, failed: 6 })
      const errors = done.body.errors as ReadonlyArray<BulkImport.BulkImportError>
      expect(errors.map((error) => [error.correlationId, error.code, error.details.line, error.details.field])).toEqual(
        [
          [a, "CONFLICT", 3, "platformCustomerId"],
          [c, "UMA_ADDRESS_EXISTS", 4, "umaAddress"],
          [d, "UMA_ADDRESS_EXISTS", 5, "umaAddress"],
          [f, "UMA_ADDRESS_EXISTS", 7, "umaAddress"],
          [x, "UMA_ADDRESS_EXISTS", 8, "umaAddress"],
          [g, "INVALID_INPUT", 10, "birthDate"]
        ]
      )
      // Each entry is the reference's error body: `message` beside our `reason`, the same words.
      for (const error of errors) {
        expect(error.message).toBe(error.reason)
        expect(error.message).toEqual(expect.any(String))
      }
      for (const [id, uma] of [
        [a, at(a)],
        [e, at(e)],
        [x, at(y)],
        [reused, gone.umaAddress]
      ] as const) {
        const found = await api.request(`${base}/customers?platformCustomerId=${encodeURIComponent(id)}`)
        const page = (await found.json()) as { data: ReadonlyArray<{ umaAddress: string }> }
        expect(page.data.map((customer) => customer.umaAddress)).toEqual([uma])
      }
    })

    it("pages the failed rows with errorsLimit and errorsNextCursor", async () => {
      const rows = Array.from({ length: 5 }, () => individual(unique(), { birthDate: "nope" }))
      const { body } = await upload(csv(...rows))
      await runAll(body.jobId)
      const first = await get(body.jobId, "?errorsLimit=2")
      expect(first.body).toMatchObject({ status: "FAILED", errorsHasMore: true, progress: { failed: 5 } })
      expect(first.body.errors.map((error: BulkImport.BulkImportError) => error.details.line)).toEqual([2, 3])
      const second = await get(body.jobId, `?errorsLimit=2&errorsCursor=${first.body.errorsNextCursor}`)
      expect(second.body.errors.map((error: BulkImport.BulkImportError) => error.details.line)).toEqual([4, 5])
      const last = await get(body.jobId, `?errorsLimit=2&errorsCursor=${second.body.errorsNextCursor}`)
      expect(last.body.errors.map((error: BulkImport.BulkImportError) => error.details.line)).toEqual([6])
      expect(last.body.errorsHasMore).toBe(false)
      expect((await get(body.jobId, "?errorsCursor=bogus")).status).toBe(400)
    })

    it("resumes a batch whose worker died before committing, creating no customer twice", async () => {
      const ids = [unique(), unique(), unique()]
      const { body } = await upload(csv(...ids.map((id) => individual(id))))
      const jobId = body.jobId as string
      // A worker that dies mid-batch: its unit of work never commits, and its job is not settled.
      const killed = await api.run(
        Effect.either(
          Effect.flatMap(UnitOfWork.UnitOfWork, (store) =>
            store.transaction(
              Effect.flatMap(BulkImports.BulkImports, (imports) =>
                imports.runBatch(api.platform.id, BulkImport.BulkImportId.make(jobId))
              ).pipe(Effect.zipRight(Effect.fail("killed")))
            )
          )
        )
      )
      expect(Either.isLeft(killed)).toBe(true)
      expect((await get(jobId)).body.progress).toEqual({ total: 3, processed: 0, successful: 0, failed: 0 })
      // The first claim's lease runs out unsettled; the job is claimed again and runs the batch whole.
      expect(await runBatches(jobId, { complete: false })).toBe(1)
      expect(await runBatches(jobId, { after: Duration.minutes(2) })).toBeGreaterThanOrEqual(1)
      await runAll(jobId)
      const done = await get(jobId)
      expect(done.body).toMatchObject({ status: "COMPLETED", progress: { total: 3, processed: 3, successful: 3 } })
      for (const id of ids) {
        const found = await api.request(`${base}/customers?platformCustomerId=${id}`)
        expect(((await found.json()) as { data: ReadonlyArray<unknown> }).data).toHaveLength(1)
      }
    })

    it("refuses a header with unknown or missing columns, naming them, and keeps nothing", async () => {
      const refused = await upload("umaAddress,platformCustomerId,customerType,nickname\r\n$a@b.co,a,INDIVIDUAL,x\r\n")
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({
        code: "INVALID_INPUT",
        details: {
          rule: "csv_header",
          unknownColumns: ["nickname"],
          missingColumns: ["addressLine1", "city", "state", "postalCode", "country"]
        }
      })
      expect((await upload("")).body.details).toMatchObject({ rule: "csv_header" })
      const open = await upload(`${header}\r\n"unterminated,x\r\n`)
      expect(open.status).toBe(400)
      expect(open.body.details).toEqual({ rule: "malformed_csv", line: 2 })
    })

    it("answers 413 for a file over the limit, 400 for a form without a file", async () => {
      const big = await upload(csv(...Array.from({ length: 60 }, () => individual(unique()))))
      expect(big.status).toBe(413)
      expect(big.body.code).toBe("PAYLOAD_TOO_LARGE")
      const empty = await api.request(`${base}/customers/bulk/csv`, { method: "POST", body: new FormData() })
      expect(empty.status).toBe(400)
      const keyed = await api.request(`${base}/customers/bulk/csv`, {
        method: "POST",
        body: formOf(csv(individual(unique()))),
        headers: { "idempotency-key": `bulk-${unique()}` }
      })
      expect(keyed.status).toBe(400)
      expect(await keyed.json()).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [{ field: "idempotency-key" }] }
      })
    })

    it("answers 404 for an unknown job or one of another platform, 400 for a malformed id, 403 without MANAGE", async () => {
      const unknown = await get(`Job:${globalThis.crypto.randomUUID()}`)
      expect(unknown.status).toBe(404)
      expect(unknown.body.code).toBe("BULK_UPLOAD_JOB_NOT_FOUND")
      const { body } = await upload(csv(individual(unique())))
      expect((await get(body.jobId, "", api.otherPlatformBasic)).status).toBe(404)
      expect((await get("Customer:nope")).status).toBe(400)
      const viewer = await api.tokenWith(["VIEW"])
      expect((await upload(csv(individual(unique())), viewer)).status).toBe(403)
      expect((await get(body.jobId, "", viewer)).status).toBe(200)
    })

    it("stores each row's End User Terms consent and reports a row accepting a version that does not exist", async () => {
      const termsHeader = `${header},endUserTermsVersion,endUserTermsAcceptedAt,endUserTermsIpAddress,endUserTermsAcceptanceMethod`
      const [accepted, stale, partial] = [unique(), unique(), unique()]
      const file =
        [
          termsHeader,
          `${individual(accepted)},V1,2026-05-01T12:00:00Z,198.51.100.24,CHECKBOX`,
          `${individual(stale)},V0,2026-05-01T12:00:00Z,198.51.100.24,CHECKBOX`,
          `${individual(partial)},V1,,,CLICK_TO_ACCEPT`
        ].join("\r\n") + "\r\n"
      const { body } = await upload(file)
      await runAll(body.jobId)
      const done = await get(body.jobId)
      expect(done.body).toMatchObject({ status: "COMPLETED", progress: { total: 3, successful: 1, failed: 2 } })
      expect(done.body.errors).toEqual([
        expect.objectContaining({
          correlationId: stale,
          code: "END_USER_TERMS_VERSION_NOT_FOUND",
          details: expect.objectContaining({ line: 3, field: "endUserTermsVersion" })
        }),
        expect.objectContaining({
          correlationId: partial,
          code: "INVALID_INPUT",
          details: expect.objectContaining({
            line: 4,
            errors: expect.arrayContaining([
              expect.objectContaining({ field: "endUserTermsAcceptedAt" }),
              expect.objectContaining({ field: "endUserTermsIpAddress" })
            ])
          })
        })
      ])
      const listed = await api.request(`${base}/customers?platformCustomerId=${accepted}`)
      expect((await listed.json()).data[0].endUserTermsConsent).toEqual({
        acceptedAt: "2026-05-01T12:00:00.000Z",
        ipAddress: "198.51.100.24",
        termsVersion: "V1",
        acceptanceMethod: "CHECKBOX"
      })
    })
  }
)
