import { afterAll, beforeAll, describe } from "vitest"
import { type Adapter, adapters } from "./Adapters.js"
import { type Harness, makeHarness } from "./Harness.js"

/** The API's version prefix: every path a test sends starts with it. */
export const base = "/2025-10-13"

/** What `describeOverHttp` makes its harness with, besides the adapter's storage. */
export type HarnessOptions = Omit<NonNullable<Parameters<typeof makeHarness>[0]>, "storage">

/**
 * A `describe` named `<title> on <adapter>` for every enabled storage adapter, with a harness on a fresh store of
 * that adapter made before its tests and disposed after them. `tests` declares the tests with that harness (usable
 * inside tests and hooks, not while declaring) and the adapter (for a test that needs a store of its own).
 */
export const describeOverHttp = (
  title: string,
  options: HarnessOptions,
  tests: (api: Harness, adapter: Adapter) => void
): void => {
  for (const adapter of adapters) {
    describe.skipIf(!adapter.enabled)(`${title} on ${adapter.name}`, () => {
      let made: Harness | undefined
      const harness = (): Harness => {
        if (made === undefined) throw new Error("the harness is made before the tests run")
        return made
      }
      beforeAll(async () => {
        made = await makeHarness({ ...options, storage: adapter.storage() })
      })
      afterAll(() => harness().dispose())
      const api: Harness = {
        get basic() {
          return harness().basic
        },
        get platform() {
          return harness().platform
        },
        get otherPlatformBasic() {
          return harness().otherPlatformBasic
        },
        request: (path, init) => harness().request(path, init),
        tokenWith: (permissions) => harness().tokenWith(permissions),
        run: (effect) => harness().run(effect),
        dispose: () => harness().dispose()
      }
      tests(api, adapter)
    })
  }
}
