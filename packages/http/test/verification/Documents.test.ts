import { DateTime, Effect } from "effect"
import { expect, it } from "vitest"
import { Document, DocumentRepo, DocumentStore } from "@payrail/core"
import { base, describeOverHttp } from "../support/OverHttp.js"

// Real, tiny files: the smallest valid JPEG header, a 1x1 PNG and a one-page PDF (by their known bytes).
const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9])
const png = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "base64"
  )
)
const pdf = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj " +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
)
const maxBytes = 4096

describeOverHttp("documents over HTTP", { documentMaxBytes: maxBytes }, (api) => {
  const createCustomer = async () => {
    const response = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({
        customerType: "INDIVIDUAL",
        platformCustomerId: `user-${crypto.randomUUID()}`,
        fullName: "Ada Lovelace",
        birthDate: "1990-12-10",
        nationality: "GB",
        region: "US"
      })
    })
    expect(response.status).toBe(201)
    return ((await response.json()) as { id: string }).id
  }

  const form = (fields: Record<string, string>, file: Uint8Array, fileName = "scan.bin", type = "image/jpeg") => {
    const body = new FormData()
    for (const [key, value] of Object.entries(fields)) body.set(key, value)
    body.set("file", new Blob([Uint8Array.from(file)], { type }), fileName)
    return body
  }

  const upload = (body: FormData | string, init: RequestInit & { auth?: string } = {}) =>
    api.request(`${base}/documents`, { method: "POST", body, ...init })

  // How many staged files no record holds (purged as if a day had passed): a refused upload must leave none.
  const leftovers = () =>
    api.run(
      Effect.flatMap(DocumentStore.DocumentStore, (store) =>
        Effect.flatMap(DateTime.now, (now) => store.purgeStaged(DateTime.add(now, { days: 1 }), 1000))
      )
    )

  const passport = (holder: string) => ({ documentHolder: holder, documentType: "PASSPORT", country: "GB" })

  it("uploads a JPEG, a PNG and a PDF (201), reads and lists them, and scopes them to the platform", async () => {
    const holder = await createCustomer()
    const created: Array<string> = []
    for (const [file, name] of [
      [jpeg, "front.jpg"],
      [png, "front.png"],
      [pdf, "statement.pdf"]
    ] as const) {
      const response = await upload(form({ ...passport(holder), side: "FRONT", documentNumber: "X123" }, file, name))
      expect(response.status).toBe(201)
      const body = (await response.json()) as Record<string, unknown>
      expect(body).toMatchObject({ documentHolder: holder, documentType: "PASSPORT", fileName: name, side: "FRONT" })
      expect(body["id"]).toMatch(/^Document:[0-9a-f-]{36}$/)
      created.push(body["id"] as string)
    }
    const stored = await api.run(
      Effect.flatMap(DocumentRepo.DocumentRepo, (repo) =>
        repo.findById(api.platform.id, Document.DocumentId.make(created[1]!))
      )
    )
    expect(stored._tag === "Some" && [stored.value.contentType, stored.value.sizeBytes]).toEqual([
      "image/png",
      png.length
    ])

    const got = await api.request(`${base}/documents/${created[0]}`)
    expect(got.status).toBe(200)
    const listed = await api.request(`${base}/documents?documentHolder=${encodeURIComponent(holder)}&limit=2`)
    const page = (await listed.json()) as { data: Array<{ id: string }>; hasMore: boolean; totalCount: number }
    expect(page.data.map((d) => d.id)).toEqual([created[2], created[1]])
    expect(page).toMatchObject({ hasMore: true, totalCount: 3 })

    expect((await api.request(`${base}/documents/${created[0]}`, { auth: api.otherPlatformBasic })).status).toBe(404)
    const theirs = await api.request(`${base}/documents?documentHolder=${encodeURIComponent(holder)}`, {
      auth: api.otherPlatformBasic
    })
    expect(((await theirs.json()) as { data: unknown[] }).data).toEqual([])
  })

  it("refuses a renamed text file (400 unsupported_file_type) and keeps nothing of it", async () => {
    const holder = await createCustomer()
    const response = await upload(form(passport(holder), new TextEncoder().encode("not an image"), "passport.jpg"))
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: "INVALID_INPUT", details: { rule: "unsupported_file_type" } })
    const listed = await api.request(`${base}/documents?documentHolder=${encodeURIComponent(holder)}`)
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([])
    expect(await leftovers()).toBe(0)
  })

  it("answers the sandbox's document rejections (documentNumber suffixes 201-206) with their codes, keeping nothing", async () => {
    const holder = await createCustomer()
    const reasons = ["LOW_QUALITY", "DATA_MISMATCH", "EXPIRED", "SUSPECTED_FRAUD", "UNSUITABLE_DOCUMENT", "INCOMPLETE"]
    for (const [index, code] of reasons.entries()) {
      const fields = { ...passport(holder), documentNumber: `P1234${201 + index}` }
      const response = await upload(form(fields, jpeg, "passport.jpg"))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({
        code,
        details: { rule: "document_rejected", documentType: "PASSPORT" }
      })
    }
    const listed = await api.request(`${base}/documents?documentHolder=${encodeURIComponent(holder)}`)
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([])
    expect(await leftovers()).toBe(0)
    // Another suffix is accepted; replacing it with a rejected number is refused and keeps the document as it was.
    const accepted = await upload(form({ ...passport(holder), documentNumber: "P1234200" }, jpeg, "passport.jpg"))
    expect(accepted.status).toBe(201)
    const { id } = (await accepted.json()) as { id: string }
    const replaced = await api.request(`${base}/documents/${id}`, {
      method: "PUT",
      body: form({ documentType: "PASSPORT", country: "GB", documentNumber: "P1234203" }, png, "passport.png")
    })
    expect(replaced.status).toBe(400)
    expect(await replaced.json()).toMatchObject({ code: "EXPIRED" })
    const kept = await api.request(`${base}/documents/${id}`)
    expect(await kept.json()).toMatchObject({ documentNumber: "P1234200", fileName: "passport.jpg" })
  })

  it("refuses a file over the limit with 413 and its error body", async () => {
    const holder = await createCustomer()
    const big = new Uint8Array(maxBytes + 1)
    big.set(jpeg)
    const response = await upload(form(passport(holder), big))
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: { rule: "max_file_size", maxFileBytes: maxBytes }
    })
    expect(await leftovers()).toBe(0)
    const exact = new Uint8Array(maxBytes)
    exact.set(jpeg)
    expect((await upload(form(passport(holder), exact))).status).toBe(201)
  })

  it("answers a truncated or malformed multipart body with 400, never a 500", async () => {
    const holder = await createCustomer()
    const boundary = "----payrail-test-boundary"
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="documentHolder"\r\n\r\n${holder}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nPASSPORT\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="country"\r\n\r\nGB\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n` +
      `Content-Type: image/jpeg\r\n\r\n\u00ff\u00d8\u00ff\u00e0 and then the body stops`
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}` }
    const truncated = await upload(head, { headers })
    expect(truncated.status).toBe(400)
    expect(await truncated.json()).toMatchObject({ code: "INVALID_INPUT" })
    const garbage = await upload("this is not multipart at all", { headers })
    expect(garbage.status).toBe(400)
    const noFile = new FormData()
    for (const [key, value] of Object.entries(passport(holder))) noFile.set(key, value)
    const missing = await upload(noFile)
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ details: { rule: "malformed_upload" } })
  })

  it("reports invalid fields (400) and an unknown holder or another platform's customer (404)", async () => {
    const holder = await createCustomer()
    const invalid = await upload(form({ documentHolder: holder, documentType: "NOPE", country: "GB" }, jpeg))
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toMatchObject({ code: "INVALID_INPUT" })
    const unknown = await upload(form(passport(`Customer:${crypto.randomUUID()}`), jpeg))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ code: "NOT_FOUND" })
    const owner = await upload(form(passport(`BeneficialOwner:${crypto.randomUUID()}`), jpeg))
    expect(owner.status).toBe(404)
    const theirs = await upload(form(passport(holder), jpeg), { auth: api.otherPlatformBasic })
    expect(theirs.status).toBe(404)
  })

  it("replaces a document's fields and file (PUT), and deletes it (204) unless submitted (409)", async () => {
    const holder = await createCustomer()
    const first = (await (await upload(form(passport(holder), jpeg))).json()) as { id: string }
    const replaced = await api.request(`${base}/documents/${first.id}`, {
      method: "PUT",
      body: form({ documentType: "NATIONAL_ID", country: "FR", side: "BACK" }, png, "back.png")
    })
    expect(replaced.status).toBe(200)
    expect(await replaced.json()).toMatchObject({
      id: first.id,
      documentHolder: holder,
      documentType: "NATIONAL_ID",
      country: "FR",
      fileName: "back.png"
    })

    await api.run(
      Effect.flatMap(DocumentRepo.DocumentRepo, (repo) =>
        Effect.flatMap(DateTime.now, (now) =>
          repo.markSubmitted(api.platform.id, [Document.DocumentId.make(first.id)], now)
        )
      )
    )
    const refused = await api.request(`${base}/documents/${first.id}`, { method: "DELETE" })
    expect(refused.status).toBe(409)
    expect(await refused.json()).toMatchObject({ code: "CONFLICT", details: { rule: "document_submitted" } })

    const second = (await (await upload(form(passport(holder), pdf))).json()) as { id: string }
    expect((await api.request(`${base}/documents/${second.id}`, { method: "DELETE" })).status).toBe(204)
    expect((await api.request(`${base}/documents/${second.id}`)).status).toBe(404)
    expect((await api.request(`${base}/documents/${second.id}`, { method: "DELETE" })).status).toBe(404)
  })

  it("needs MANAGE to upload and VIEW to read", async () => {
    const holder = await createCustomer()
    const viewer = await api.tokenWith(["VIEW"])
    expect((await upload(form(passport(holder), jpeg), { auth: viewer })).status).toBe(403)
    expect((await api.request(`${base}/documents`, { auth: viewer })).status).toBe(200)
  })
})
