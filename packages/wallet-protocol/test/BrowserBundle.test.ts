import { builtinModules } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { build, type BuildOptions } from "esbuild"
import { describe, expect, it } from "vitest"

const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))

/**
 * The one tolerated reference: @hpke/common's WebCrypto loader falls back to `await import("crypto")` only when
 * `globalThis.crypto` is undefined, which never happens in browsers, React Native with a WebCrypto polyfill, or
 * Node 20+. It is a lazy dynamic import inside a try block, never a static dependency; anything else fails.
 */
const isHpkeWebCryptoFallback = (importer: string, imported: { path: string; kind: string }): boolean =>
  /node_modules\/@hpke\/common\//.test(importer) && imported.path === "crypto" && imported.kind === "dynamic-import"

/**
 * Bundles for the browser and lists every reason the result would not run there: unresolvable imports (esbuild
 * fails on Node built-ins when the platform is "browser"), imports left external or naming a Node built-in, and
 * `Buffer` or `require` in the output.
 */
const browserProblems = async (options: BuildOptions): Promise<ReadonlyArray<string>> => {
  const result = await build({
    ...options,
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    outdir: "out"
  }).catch((error: unknown) => error as { errors: ReadonlyArray<{ text: string }> })
  if (!("metafile" in result)) return result.errors.map((e) => e.text)
  const problems: Array<string> = []
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (isHpkeWebCryptoFallback(file, imported)) continue
      if (imported.external || builtins.has(imported.path)) problems.push(`${file} imports ${imported.path}`)
    }
  }
  for (const output of result.outputFiles) {
    if (/\bBuffer\s*[.(]/.test(output.text)) problems.push(`${output.path} uses Buffer`)
    if (/\brequire\s*\(/.test(output.text)) problems.push(`${output.path} calls require`)
  }
  return problems
}

describe("browser bundle", () => {
  it("bundles @payrail/wallet-protocol and @payrail/signer with no Node built-in", async () => {
    const problems = await browserProblems({
      entryPoints: [
        path.join(packagesDir, "wallet-protocol/src/index.ts"),
        path.join(packagesDir, "signer/src/index.ts")
      ]
    })
    expect(problems).toEqual([])
  }, 60_000)

  it("would catch a static Node built-in (the check is not vacuous)", async () => {
    const problems = await browserProblems({
      stdin: { contents: 'import { randomBytes } from "node:crypto"; export const r = randomBytes(1)', loader: "ts" }
    })
    expect(problems.length).toBeGreaterThan(0)
  })

  it("would catch a dynamic Node built-in import outside @hpke/common", async () => {
    const problems = await browserProblems({
      stdin: {
        contents:
          'export const load = async () => { try { return await import("crypto") } catch { return undefined } }',
        loader: "ts"
      }
    })
    expect(problems).toEqual([expect.stringMatching(/imports crypto$/)])
  })

  it("would catch a Buffer reference", async () => {
    const problems = await browserProblems({ stdin: { contents: "export const b = Buffer.from('x')", loader: "ts" } })
    expect(problems).toEqual([expect.stringMatching(/stdin\.js uses Buffer$/)])
  })
})
