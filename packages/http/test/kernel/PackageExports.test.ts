import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"

const require = createRequire(import.meta.url)

describe("package exports of @payrail/api and @payrail/http", () => {
  it("close every internal/ folder and keep the context modules importable", () => {
    for (const closed of [
      "@payrail/api/internal/openApiCleanup",
      "@payrail/http/internal/pageRequest",
      "@payrail/http/kernel/internal/routeTable"
    ]) {
      expect(() => require.resolve(closed), closed).toThrow(/is not defined by "exports"/)
    }
    expect(require.resolve("@payrail/api/customers/CustomersApi")).toMatch(
      /packages\/api\/src\/customers\/CustomersApi\.ts$/
    )
    expect(require.resolve("@payrail/http/kernel/DocsPage")).toMatch(/packages\/http\/src\/kernel\/DocsPage\.ts$/)
  })
})
