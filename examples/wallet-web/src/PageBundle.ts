import { fileURLToPath } from "node:url"
import { build } from "esbuild"

/** The page's module, `src/page/wallet.ts`, resolved from this file. */
export const entryPoint = fileURLToPath(new URL("./page/wallet.ts", import.meta.url))

/**
 * Bundles the page's module and what it imports (`@payrail/signer`, its wire formats and their noble/hpke
 * dependencies) into one ES module for the browser, in memory. No external asset: the page loads only this.
 */
export const bundle = async (): Promise<string> => {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent"
  })
  const [output] = result.outputFiles
  if (output === undefined) throw new Error("esbuild produced no bundle")
  return output.text
}
