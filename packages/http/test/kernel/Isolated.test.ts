import { readdirSync, readFileSync, statSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Context, Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import { DocumentLimits } from "@payrail/core"
import { Isolated } from "@payrail/http"

const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return name.endsWith(".ts") ? [full] : []
  })

class Picked extends Context.Tag("test/Picked")<Picked, string>() {}
class Other extends Context.Tag("test/Other")<Other, string>() {}
class Seen extends Context.Tag("test/Seen")<
  Seen,
  { readonly picked: string; readonly other: Option.Option<string>; readonly maxFileBytes: number }
>() {}

describe("Isolated", () => {
  it("builds a layer with the services picked and the settings provided, without the rest", async () => {
    const layer = Layer.effect(
      Seen,
      Effect.gen(function* () {
        return {
          picked: yield* Picked,
          other: yield* Effect.serviceOption(Other),
          maxFileBytes: (yield* DocumentLimits.DocumentLimits).maxFileBytes
        }
      })
    )
    const seen = await Effect.runPromise(
      Effect.scoped(
        Layer.build(
          Isolated.isolated(layer, Context.pick(Picked)).pipe(
            Layer.provide(
              Layer.mergeAll(
                Layer.succeed(Picked, "picked"),
                Layer.succeed(Other, "other"),
                Layer.succeed(DocumentLimits.DocumentLimits, { maxFileBytes: 1234 })
              )
            )
          )
        )
      ).pipe(Effect.map(Context.get(Seen)))
    )
    expect(seen).toEqual({ picked: "picked", other: Option.none(), maxFileBytes: 1234 })
  })

  it("carries every Context.Reference the packages define", () => {
    const declared = new Set<string>()
    for (const pkg of readdirSync(packagesDir)) {
      const src = path.join(packagesDir, pkg, "src")
      if (!statSync(path.join(packagesDir, pkg)).isDirectory() || !existsDir(src)) continue
      for (const file of sourceFiles(src)) {
        for (const match of readFileSync(file, "utf8").matchAll(/Context\.Reference<\w+>\(\)\(\s*"([^"]+)"/g)) {
          declared.add(match[1] ?? "")
        }
      }
    }
    expect(declared.size).toBeGreaterThan(0)
    expect([...declared].sort()).toEqual(Isolated.settings.map((tag) => tag.key).sort())
  })
})

const existsDir = (dir: string): boolean => {
  try {
    return statSync(dir).isDirectory()
  } catch {
    return false
  }
}
