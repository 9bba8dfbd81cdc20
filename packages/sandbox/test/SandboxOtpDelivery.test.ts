import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Logger, LogLevel, Option, Redacted } from "effect"
import { OtpDelivery, Platform } from "@payrail/core"
import { SandboxOtpDelivery } from "@payrail/sandbox"

const platformA = Platform.PlatformId.make("Platform:00000000-0000-4000-8000-00000000000a")
const platformB = Platform.PlatformId.make("Platform:00000000-0000-4000-8000-00000000000b")
const expiresAt = DateTime.unsafeMake("2026-01-01T00:05:00Z")

const message = (to: string, code: string, platformId = platformA): OtpDelivery.OtpMessage => ({
  platformId,
  channel: to.startsWith("+") ? "SMS" : "EMAIL",
  to,
  code: Redacted.make(code),
  expiresAt,
  appName: "Acme Wallet"
})

const send = (otp: OtpDelivery.OtpMessage) => Effect.flatMap(OtpDelivery.OtpDelivery, (delivery) => delivery.send(otp))
const outbox = SandboxOtpDelivery.SandboxOtpOutbox
const codeOf = (found: Option.Option<OtpDelivery.OtpMessage>) =>
  Option.getOrUndefined(Option.map(found, (otp) => Redacted.value(otp.code)))

describe("SandboxOtpDelivery", () => {
  it.effect("keeps the latest message per platform and recipient for tests and the console to read", () =>
    Effect.gen(function* () {
      const { latest, list } = yield* outbox
      yield* send(message("ada@example.com", "000000"))
      yield* send(message("+14155550100", "111111"))
      yield* send(message("ada@example.com", "222222"))
      yield* send(message("ada@example.com", "333333", platformB))
      expect(codeOf(yield* latest(platformA, "ada@example.com"))).toBe("222222")
      expect(codeOf(yield* latest(platformA, "+14155550100"))).toBe("111111")
      expect(codeOf(yield* latest(platformB, "ada@example.com"))).toBe("333333")
      expect(Option.isNone(yield* latest(platformB, "+14155550100"))).toBe(true)
      expect((yield* list(platformA)).map((otp) => otp.to)).toEqual(["ada@example.com", "+14155550100"])
      expect((yield* latest(platformA, "ada@example.com")).pipe(Option.map((otp) => otp.appName))).toEqual(
        Option.some("Acme Wallet")
      )
    }).pipe(Effect.provide(SandboxOtpDelivery.layer))
  )

  it.effect(`forgets the least recently messaged recipient beyond ${SandboxOtpDelivery.CAPACITY}`, () =>
    Effect.gen(function* () {
      const { latest } = yield* outbox
      for (let i = 0; i <= SandboxOtpDelivery.CAPACITY; i++) {
        yield* send(message(`user${i}@example.com`, "000000"))
        if (i === 0) yield* send(message("keep@example.com", "000000"))
      }
      yield* send(message("keep@example.com", "444444"))
      yield* send(message("one-more@example.com", "000000"))
      expect(Option.isNone(yield* latest(platformA, "user0@example.com"))).toBe(true)
      expect(Option.isNone(yield* latest(platformA, "user1@example.com"))).toBe(true)
      expect(codeOf(yield* latest(platformA, "keep@example.com"))).toBe("444444")
      expect(codeOf(yield* latest(platformA, `user${SandboxOtpDelivery.CAPACITY}@example.com`))).toBe("000000")
    }).pipe(Effect.provide(SandboxOtpDelivery.layer))
  )

  it.effect("never logs, and a captured message prints without its code", () =>
    Effect.gen(function* () {
      const logged: Array<unknown> = []
      const capture = Logger.make(({ message }) => logged.push(message))
      yield* send(message("ada@example.com", "987654")).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
        Logger.withMinimumLogLevel(LogLevel.All)
      )
      expect(logged).toEqual([])
      const found = yield* (yield* outbox).latest(platformA, "ada@example.com")
      expect(JSON.stringify(found)).not.toContain("987654")
      expect(String(Option.getOrThrow(found).code)).not.toContain("987654")
    }).pipe(Effect.provide(SandboxOtpDelivery.layer))
  )
})
