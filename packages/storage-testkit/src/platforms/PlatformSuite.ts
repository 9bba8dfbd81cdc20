import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ApiTokenRepo, PlatformRepo } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

/**
 * Platforms and API tokens: round-trips, lookups by client id (alone and with the token's platform), scoping of
 * token lists, client ids no token can have.
 */
export const register = (it: Methods) => {
  it.effect("stores a platform and finds it by id with every field intact", () =>
    Effect.gen(function* () {
      const repo = yield* PlatformRepo.PlatformRepo
      const platform = Fixtures.platform("Round trip")
      yield* repo.insert(platform)
      expect(yield* repo.findById(platform.id)).toEqual(Option.some(platform))
      expect((yield* repo.list).map((found) => found.id)).toContain(platform.id)
    })
  )

  it.effect("does not find an unknown platform", () =>
    Effect.gen(function* () {
      const repo = yield* PlatformRepo.PlatformRepo
      expect(yield* repo.findById(Fixtures.platform().id)).toEqual(Option.none())
    })
  )

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
    })
  )

  it.effect("finds a token together with its platform by client id", () =>
    Effect.gen(function* () {
      const repo = yield* ApiTokenRepo.ApiTokenRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const token = Fixtures.apiToken(platform.id)
      yield* repo.insert(token)
      yield* repo.insert(Fixtures.apiToken(other.id))
      expect(yield* repo.findWithPlatform(token.clientId)).toEqual(Option.some({ token, platform }))
      expect(yield* repo.findWithPlatform("pk_unknown")).toEqual(Option.none())
      expect(yield* repo.findWithPlatform(token.clientId.toUpperCase())).toEqual(Option.none())
    })
  )

  it.effect("does not find a token whose platform does not exist", () =>
    Effect.gen(function* () {
      const repo = yield* ApiTokenRepo.ApiTokenRepo
      const orphan = Fixtures.apiToken(Fixtures.platform().id)
      yield* repo.insert(orphan)
      expect(yield* repo.findWithPlatform(orphan.clientId)).toEqual(Option.none())
    })
  )

  it.effect("answers a client id containing NUL or of any length as not found, never as a failure", () =>
    Effect.gen(function* () {
      const repo = yield* ApiTokenRepo.ApiTokenRepo
      const platform = yield* Fixtures.insertPlatform
      const token = Fixtures.apiToken(platform.id)
      yield* repo.insert(token)
      for (const clientId of [
        "\u0000",
        `${token.clientId}\u0000`,
        `pk_\u0000${token.clientId}`,
        "",
        "x".repeat(10_000)
      ]) {
        expect(yield* repo.findWithPlatform(clientId)).toEqual(Option.none())
        expect(yield* repo.findByClientId(clientId)).toEqual(Option.none())
      }
    })
  )
}
