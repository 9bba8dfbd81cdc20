import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startServer } from "./ServerProcess.js"

const base = "/2025-10-13"
const mib = 1024 * 1024

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

// A JPEG-signed file of `bytes` bytes.
const jpeg = (bytes: number): Uint8Array<ArrayBuffer> => {
  const file = new Uint8Array(bytes)
  file.set([0xff, 0xd8, 0xff, 0xe0])
  return file
}

it("streams document uploads on the Node server past the JSON body limit, up to the document limit", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-documents-"))
  temporaryDirectories.push(dataDir)
  const server = await startServer({
    PAYRAIL_DATA_DIR: dataDir,
    PAYRAIL_STORAGE: "memory",
    PAYRAIL_DOCUMENT_MAX_BYTES: String(3 * mib)
  })
  try {
    const headers = { authorization: server.auth }
    const created = await fetch(`${server.baseUrl}${base}/customers`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        customerType: "INDIVIDUAL",
        platformCustomerId: "doc-holder",
        fullName: "Ada Lovelace",
        birthDate: "1990-12-10",
        nationality: "GB",
        region: "US"
      })
    })
    const holder = ((await created.json()) as { id: string }).id
    const upload = (file: Uint8Array<ArrayBuffer>) => {
      const form = new FormData()
      form.set("documentHolder", holder)
      form.set("documentType", "PASSPORT")
      form.set("country", "GB")
      form.set("file", new Blob([file], { type: "image/jpeg" }), "scan.jpg")
      return fetch(`${server.baseUrl}${base}/documents`, { method: "POST", headers, body: form })
    }
    const accepted = await upload(jpeg(2 * mib))
    expect(accepted.status).toBe(201)
    const refused = await upload(jpeg(3 * mib + 1))
    expect(refused.status).toBe(413)
    expect(await refused.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })

    const boundary = "payrail-boundary"
    const truncated = await fetch(`${server.baseUrl}${base}/documents`, {
      method: "POST",
      headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="documentHolder"\r\n\r\n${holder}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\u00ff\u00d8\u00ff cut`
    })
    expect(truncated.status).toBe(400)
    expect(await truncated.json()).toMatchObject({ code: "INVALID_INPUT" })
    // JSON routes keep their 1 MiB limit.
    const json = await fetch(`${server.baseUrl}${base}/customers`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: "x".repeat(2 * mib)
    })
    expect(json.status).toBe(413)
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)
  } finally {
    server.kill()
  }
}, 120_000)
