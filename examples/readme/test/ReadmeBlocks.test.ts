import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { blocksOf, matchesPromise } from "./ReadmeBlocks.js"

const roots: Array<string> = []
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))))

const readme = async (text: string) => {
  const root = await mkdtemp(join(tmpdir(), "payrail-readme-blocks-"))
  roots.push(root)
  await mkdir(join(root, "packages", "demo"), { recursive: true })
  await writeFile(join(root, "packages", "demo", "README.md"), text)
  return () => blocksOf(root, join("packages", "demo"))
}

describe("README block extraction", () => {
  it("reads each ts block with its marker, line and promised output", async () => {
    const blocks = (
      await readme(
        [
          "# demo",
          "```ts",
          "console.log(1) // 1",
          "```",
          "```sh",
          "npm start",
          "```",
          "<!-- not-run: needs a phone -->",
          "",
          "```ts",
          "call()",
          "```",
          "<!-- needs: DATABASE_URL -->",
          "```ts",
          'console.log("a") // a',
          "console.log(2)",
          "```"
        ].join("\n")
      )
    )()
    expect(
      blocks.map(({ index, firstLine, marker, expectedOutput }) => ({ index, firstLine, marker, expectedOutput }))
    ).toEqual([
      { index: 1, firstLine: 3, marker: { kind: "run" }, expectedOutput: ["1"] },
      { index: 2, firstLine: 11, marker: { kind: "not-run", reason: "needs a phone" }, expectedOutput: undefined },
      { index: 3, firstLine: 15, marker: { kind: "needs-database" }, expectedOutput: undefined }
    ])
  })

  it("refuses a not-run or typecheck-only marker without its reason, and an unknown need", async () => {
    expect(await readme("<!-- not-run -->\n```ts\nx\n```\n")).toThrow(/block 1 .*needs a reason/)
    expect(await readme("<!-- typecheck-only: -->\n```ts\nx\n```\n")).toThrow(/needs a reason/)
    expect(await readme("<!-- needs: redis -->\n```ts\nx\n```\n")).toThrow(/unknown <!-- needs: redis -->/)
  })

  it("matches printed output against the promise, with … standing for any text", () => {
    expect(matchesPromise("Customer:… APPROVED", "Customer:0190-ab APPROVED")).toBe(true)
    expect(matchesPromise("Customer:… APPROVED", "Customer:0190-ab REJECTED")).toBe(false)
    expect(matchesPromise("200 { status: 'ok' }", "200 { status: 'ok' }")).toBe(true)
    expect(matchesPromise("(a+b)", "(a+b)")).toBe(true)
  })
})
