import { expect } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Schedule, TestServices } from "effect"
import { ApiTokenRepo, CredentialChanges, Platform, PlatformRepo } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

/**
 * Platforms and API tokens: round-trips, lookups by client id (alone and with the token's platform), scoping of
 * token lists, client ids no token can have.
 */
// Waits (on the real clock, up to 10 s) until `changes.version` satisfies `ready`, and answers it.
const versionWhen = (ready: (version: Option.Option<number>) => boolean) =>
  Effect.flatMap(CredentialChanges.CredentialChanges, (changes) =>
    TestServices.provideLive(
      changes.version.pipe(
        Effect.filterOrFail(ready),
        Effect.retry(Schedule.spaced(Duration.millis(20)).pipe(Schedule.upTo(Duration.seconds(10))))
      )
    )
  )

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

  it.effect("deletes a token by client id, answers it once, and signals the change", () =>
    Effect.gen(function* () {
      const repo = yield* ApiTokenRepo.ApiTokenRepo
      const platform = yield* Fixtures.insertPlatform
      const token = Fixtures.apiToken(platform.id)
      const kept = Fixtures.apiToken(platform.id)
      yield* repo.insert(token)
      yield* repo.insert(kept)
      // Stores that can observe changes do so within seconds of opening; a store that cannot stays none.
      const before = yield* versionWhen(Option.isSome).pipe(Effect.orElseSucceed(() => Option.none<number>()))
      expect(yield* repo.deleteByClientId(token.clientId)).toEqual(Option.some(token))
      expect(yield* repo.findWithPlatform(token.clientId)).toEqual(Option.none())
      expect(yield* repo.deleteByClientId(token.clientId)).toEqual(Option.none())
      expect(yield* repo.deleteByClientId("pk_\u0000")).toEqual(Option.none())
      expect(yield* repo.listByPlatform(platform.id)).toEqual([kept])
      if (Option.isSome(before)) {
        const after = yield* versionWhen((version) => Option.isNone(version) || version.value !== before.value)
        expect(after).not.toEqual(before)
      }
    })
  )

  it.effect("replaces a platform only while it is unchanged since the given updatedAt, and signals it", () =>
    Effect.gen(function* () {
      const repo = yield* PlatformRepo.PlatformRepo
      const platform = yield* Fixtures.insertPlatform
      const before = yield* versionWhen(Option.isSome).pipe(Effect.orElseSucceed(() => Option.none<number>()))
      const next = new Platform.Platform({
        ...platform,
        config: new Platform.PlatformConfig({
          ...platform.config,
          subjectToCounterpartyRules: true,
          umaDomain: "a.example.com"
        }),
        updatedAt: DateTime.add(platform.updatedAt, { millis: 1 })
      })
      expect(yield* repo.updateConfig(next, platform.updatedAt)).toBe(true)
      expect(yield* repo.findById(platform.id)).toEqual(Option.some(next))
      // A writer that read the platform before `next` loses: nothing changes.
      const stale = new Platform.Platform({
        ...next,
        name: "stale",
        updatedAt: DateTime.add(platform.updatedAt, { millis: 2 })
      })
      expect(yield* repo.updateConfig(stale, platform.updatedAt)).toBe(false)
      expect(yield* repo.findById(platform.id)).toEqual(Option.some(next))
      expect(yield* repo.updateConfig(Fixtures.platform(), platform.updatedAt)).toBe(false)
      if (Option.isSome(before)) {
        const after = yield* versionWhen((version) => Option.isNone(version) || version.value !== before.value)
        expect(after).not.toEqual(before)
      }
    })
  )

  it.effect("finds and deletes a token by id only within its platform, and signals the deletion", () =>
    Effect.gen(function* () {
      const repo = yield* ApiTokenRepo.ApiTokenRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const token = Fixtures.apiToken(platform.id)
      yield* repo.insert(token)
      expect(yield* repo.findById(platform.id, token.id)).toEqual(Option.some(token))
      expect(yield* repo.findById(other.id, token.id)).toEqual(Option.none())
      expect(yield* repo.deleteById(other.id, token.id)).toEqual(Option.none())
      const before = yield* versionWhen(Option.isSome).pipe(Effect.orElseSucceed(() => Option.none<number>()))
      expect(yield* repo.deleteById(platform.id, token.id)).toEqual(Option.some(token))
      expect(yield* repo.findWithPlatform(token.clientId)).toEqual(Option.none())
      expect(yield* repo.deleteById(platform.id, token.id)).toEqual(Option.none())
      if (Option.isSome(before)) {
        const after = yield* versionWhen((version) => Option.isNone(version) || version.value !== before.value)
        expect(after).not.toEqual(before)
      }
    })
  )
}
