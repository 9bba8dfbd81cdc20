import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ApiTokenRepo, PlatformRepo } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

/** Platforms and API tokens: round-trips, lookups by client id, scoping of token lists. */
export const register = (it: Methods) => {
  it.effect("stores a platform and finds it by id with every field intact", () =>
    Effect.gen(function* () {
      const repo = yield* PlatformRepo.PlatformRepo
      const platform = Fixtures.platform("Round trip")
      yield* repo.insert(platform)
      expect(yield* repo.findById(platform.id)).toEqual(Option.some(platform))
      expect((yield* repo.list).map((found) => found.id)).toContain(platform.id)
    }))

  it.effect("does not find an unknown platform", () =>
    Effect.gen(function* () {
      const repo = yield* PlatformRepo.PlatformRepo
      expect(yield* repo.findById(Fixtures.platform().id)).toEqual(Option.none())
    }))

  it.effect("finds an API token by client id and lists tokens per platform", () =>
    Effect.gen(function* () {
      const repo = yield* ApiTokenRepo.ApiTokenRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const token = Fixtures.apiToken(mine.id)
      yield* repo.insert(token)
      yield* repo.insert(Fixtures.apiToken(other.id))
      expect(yield* repo.findByClientId(token.clientId)).toEqual(Option.some(token))
      expect(yield* repo.findByClientId("pk_unknown")).toEqual(Option.none())
      expect(yield* repo.listByPlatform(mine.id)).toEqual([token])
    }))
}
