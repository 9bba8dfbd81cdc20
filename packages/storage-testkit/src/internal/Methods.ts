import type { Vitest } from "@effect/vitest"
import type { Storage } from "@payrail/core"

/** The test methods a suite registers its cases with: effects run against the adapter's storage layer. */
export type Methods = Vitest.MethodsNonLive<Storage.Services, true>
