import { builtinModules } from "node:module"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"
import { launch, suite } from "../../http/test/support/Browser.js"
import { serverFor, stores } from "./support/Servers.js"

const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url))
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))

/** The default entry bundled for a browser, as one script that sets `globalThis.PayrailClientBundle`. */
const browserBundle = async () => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "PayrailClientBundle",
    write: false,
    metafile: true,
    logLevel: "silent"
  })
  const nodeImports = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
    input.imports
      .filter((imported) => imported.external || builtins.has(imported.path))
      .map((imported) => `${file} imports ${imported.path}`)
  )
  return { script: result.outputFiles[0]?.text ?? "", nodeImports }
}

/** What the page does with the bundle, in the browser. */
interface PageResult {
  readonly createdId: string
  readonly listedIds: ReadonlyArray<string>
  readonly error: { readonly isPayrailError: boolean; readonly status: number; readonly code: string }
}

const { skip, title } = suite("@payrail/client in headless Chromium")

for (const { store, label, skip: noDatabase } of stores) {
  describe.skipIf(skip || noDatabase)(`${title} against the reference server on ${label}`, () => {
    const server = serverFor(store, "client_browser")

    it("bundles for the browser with no Node built-in and makes calls from a page", async () => {
      const { script, nodeImports } = await browserBundle()
      expect(nodeImports).toEqual([])
      const browser = await launch()
      try {
        const page = await browser.newPage()
        // A page of the server's own origin, so the calls are same-origin as from an app served beside the API.
        await page.goto(`${server().baseUrl}/health`)
        await page.addScriptTag({ content: script })
        const result = await page.evaluate(
          async ({ baseUrl, clientId, clientSecret }): Promise<PageResult> => {
            const bundle = (globalThis as unknown as { PayrailClientBundle: typeof import("../src/index.js") })
              .PayrailClientBundle
            const payrail = bundle.createPayrailClient({ baseUrl, clientId, clientSecret })
            const created = await payrail.customers.create({ customerType: "INDIVIDUAL", fullName: "Browser User" })
            const listedIds: Array<string> = []
            for await (const customer of payrail.customers.list.all({ limit: 1 })) listedIds.push(customer.id)
            const failure = await payrail.customers.get({ customerId: "nope" }).catch((error: unknown) => error)
            return {
              createdId: created.id,
              listedIds,
              error: {
                isPayrailError: failure instanceof bundle.PayrailError,
                status: (failure as { status: number }).status,
                code: (failure as { code: string }).code
              }
            }
          },
          { baseUrl: server().baseUrl, clientId: server().clientId, clientSecret: server().clientSecret }
        )
        expect(result.createdId).toMatch(/^Customer:/)
        expect(result.listedIds).toContain(result.createdId)
        expect(result.error).toEqual({ isPayrailError: true, status: 400, code: "INVALID_INPUT" })
      } finally {
        await browser.close()
      }
    }, 120_000)
  })
}
