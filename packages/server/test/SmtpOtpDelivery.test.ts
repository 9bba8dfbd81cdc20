import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, DateTime, Effect, Exit, Layer, Logger, Option, Redacted, TestClock } from "effect"
import { OtpDelivery, Platform } from "@payrail/core"
import { SMTPServer } from "smtp-server"
import * as SmtpOtpDelivery from "../src/SmtpOtpDelivery.js"

const NOW = DateTime.unsafeMake("2026-03-01T12:00:00Z")
const PASSWORD = "s3cret-smtp-password"
const platformId = Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001")

const message = (overrides: Partial<OtpDelivery.OtpMessage> = {}): OtpDelivery.OtpMessage => ({
  platformId,
  channel: "EMAIL",
  to: "ada@example.com",
  code: Redacted.make("482913"),
  expiresAt: DateTime.add(NOW, { minutes: 10 }),
  ...overrides
})

interface Received {
  readonly from: string | false
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

/** A tiny SMTP server on 127.0.0.1 requiring user/password auth, refusing recipients at `refused.example.com`. */
const smtpServer = Effect.acquireRelease(
  Effect.async<{ readonly port: number; readonly received: Array<Received>; readonly server: SMTPServer }>((resume) => {
    const received: Array<Received> = []
    const server = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) =>
        auth.username === "mailer" && auth.password === PASSWORD
          ? callback(null, { user: "mailer" })
          : callback(new Error("bad credentials")),
      onRcptTo: (address, _session, callback) =>
        address.address.endsWith("@refused.example.com") ? callback(new Error("mailbox unavailable")) : callback(),
      onData: (stream, session, callback) => {
        const chunks: Array<Buffer> = []
        stream.on("data", (chunk: Buffer) => chunks.push(chunk))
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom === false ? false : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8")
          })
          callback()
        })
      }
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ port: (server.server.address() as AddressInfo).port, received, server }))
    )
  }),
  ({ server }) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
)

const deliveryTo = (port: number, fromName?: string) =>
  SmtpOtpDelivery.layer({
    url: Redacted.make(`smtp://mailer:${PASSWORD}@127.0.0.1:${port}`),
    fromAddress: "wallet@payrail.example",
    ...(fromName === undefined ? {} : { fromName }),
    timeout: "5 seconds"
  })

const send = (otp: OtpDelivery.OtpMessage) => Effect.flatMap(OtpDelivery.OtpDelivery, (delivery) => delivery.send(otp))

/** Runs `effect` with a logger that keeps every line it is given, and returns them. */
const logsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    const logger = Logger.make(({ message, annotations }) => lines.push(JSON.stringify({ message, annotations })))
    const exit = yield* Effect.exit(effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger))))
    return { exit, lines }
  })

describe("SmtpOtpDelivery.render", () => {
  it("names the app, the code and its expiry; the subject carries no code", () => {
    const email = SmtpOtpDelivery.render(message({ appName: "Acme\r\nBcc: x@evil" }), { fromAddress: "a@b.c" }, NOW)
    expect(email.subject).toBe("Your Acme Bcc: x@evil verification code")
    expect(email.subject).not.toContain("482913")
    expect(email.text).toContain("Your Acme Bcc: x@evil verification code is:\n\n    482913\n")
    expect(email.text).toContain("It expires in 10 minutes (at 2026-03-01T12:10:00Z).")
    expect(email.from).toEqual({ name: "Acme Bcc: x@evil", address: "a@b.c" })
    const platformSender = SmtpOtpDelivery.render(
      message({ fromAddress: "hi@acme.example", fromName: "Acme", replyTo: "help@acme.example" }),
      { fromAddress: "a@b.c", appName: "Default" },
      DateTime.add(NOW, { minutes: 9, seconds: 30 })
    )
    expect(platformSender).toMatchObject({
      from: { name: "Acme", address: "hi@acme.example" },
      replyTo: "help@acme.example",
      subject: "Your Default verification code"
    })
    expect(platformSender.text).toContain("It expires in 1 minute ")
  })
})

describe("SmtpOtpDelivery over SMTP", () => {
  it.scoped("sends one plain-text email per code through an authenticated SMTP server", () =>
    Effect.gen(function* () {
      const { port, received } = yield* smtpServer
      yield* TestClock.setTime(DateTime.toEpochMillis(NOW))
      yield* send(message({ appName: "Acme Wallet", replyTo: "help@acme.example" })).pipe(
        Effect.provide(deliveryTo(port))
      )
      expect(received).toHaveLength(1)
      const [mail] = received
      expect(mail?.from).toBe("wallet@payrail.example")
      expect(mail?.to).toEqual(["ada@example.com"])
      expect(mail?.raw).toMatch(/^Subject: Your Acme Wallet verification code\r$/m)
      expect(mail?.raw).toMatch(/^From: Acme Wallet <wallet@payrail\.example>\r$/m)
      expect(mail?.raw).toMatch(/^Reply-To: help@acme\.example\r$/m)
      expect(mail?.raw).toMatch(/^Content-Type: text\/plain/m)
      expect(mail?.raw).toContain("482913")
      expect(mail?.raw).toContain("It expires in 10 minutes (at 2026-03-01T12:10:00Z).")
    })
  )

  it.scoped("fails OtpDeliveryFailed when the server refuses, logging neither the code nor the credentials", () =>
    Effect.gen(function* () {
      const { port, received } = yield* smtpServer
      const { exit, lines } = yield* logsOf(
        send(message({ to: "bob@refused.example.com" })).pipe(Effect.provide(deliveryTo(port)))
      )
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("OtpDeliveryFailed")
      expect(received).toHaveLength(0)
      expect(lines.length).toBeGreaterThan(0)
      for (const line of lines) {
        expect(line).not.toContain("482913")
        expect(line).not.toContain(PASSWORD)
      }
      const wrongPassword = SmtpOtpDelivery.layer({
        url: Redacted.make(`smtp://mailer:wrong@127.0.0.1:${port}`),
        fromAddress: "wallet@payrail.example"
      })
      const refused = yield* Effect.exit(send(message()).pipe(Effect.provide(wrongPassword)))
      expect(Exit.isFailure(refused)).toBe(true)
    })
  )

  it.scoped("refuses SMS messages, which SMTP cannot carry", () =>
    Effect.gen(function* () {
      const { port, received } = yield* smtpServer
      const exit = yield* Effect.exit(
        send(message({ channel: "SMS", to: "+14155550100" })).pipe(Effect.provide(deliveryTo(port)))
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(received).toHaveLength(0)
    })
  )
})

describe("SmtpOtpDelivery configuration", () => {
  const read = (env: Record<string, string>) =>
    Effect.withConfigProvider(SmtpOtpDelivery.fromConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("is off without PAYRAIL_SMTP_URL and needs PAYRAIL_SMTP_FROM with it", () =>
    Effect.gen(function* () {
      expect(Option.isNone(yield* read({}))).toBe(true)
      const configured = yield* read({
        PAYRAIL_SMTP_URL: `smtps://mailer:${PASSWORD}@mail.example.com:465`,
        PAYRAIL_SMTP_FROM: "wallet@payrail.example"
      })
      expect(Option.map(configured, (options) => options.fromAddress)).toEqual(Option.some("wallet@payrail.example"))
      expect(String(Option.getOrThrow(configured).url)).not.toContain(PASSWORD)
      const missingFrom = yield* Effect.flip(read({ PAYRAIL_SMTP_URL: "smtp://mail.example.com" }))
      expect(String(missingFrom)).toContain("PAYRAIL_SMTP_FROM")
      const notSmtp = yield* Effect.flip(
        read({ PAYRAIL_SMTP_URL: `https://x:${PASSWORD}@h`, PAYRAIL_SMTP_FROM: "a@b.c" })
      )
      expect(String(notSmtp)).toContain("PAYRAIL_SMTP_URL")
      expect(String(notSmtp)).not.toContain(PASSWORD)
    })
  )

  it.effect("layerConfig builds the delivery from the environment", () =>
    Effect.gen(function* () {
      const delivery = yield* OtpDelivery.OtpDelivery
      expect(typeof delivery.send).toBe("function")
    }).pipe(
      Effect.provide(
        SmtpOtpDelivery.layerConfig.pipe(
          Layer.provide(
            Layer.setConfigProvider(
              ConfigProvider.fromMap(
                new Map([
                  ["PAYRAIL_SMTP_URL", "smtp://127.0.0.1:1"],
                  ["PAYRAIL_SMTP_FROM", "wallet@payrail.example"]
                ])
              )
            )
          )
        )
      )
    )
  )
})
