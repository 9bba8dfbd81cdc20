import { Clock, Config, ConfigError, DateTime, Duration, Effect, Either, Layer, Option, Redacted } from "effect"
import { OtpDelivery } from "@payrail/core"
import nodemailer from "nodemailer"
import type SMTPTransport from "nodemailer/lib/smtp-transport/index.js"

/** Options of {@link layer}. */
export interface Options {
  /** `smtp://user:password@host:587` or `smtps://…:465` (credentials inside: never logged). */
  readonly url: Redacted.Redacted<string>
  /** The sender when the platform's `embeddedWalletConfig` names none. */
  readonly fromAddress: string
  /** The sender's display name when the platform names none; default the app's name. */
  readonly fromName?: string
  /** The app's name when the platform names none; default `Payrail`. */
  readonly appName?: string
  /** How long connecting, greeting and each SMTP command may take; default 10 seconds. */
  readonly timeout?: Duration.DurationInput
}

/** An email ready for the transport: who it is from and to, its subject and its plain text. */
export interface OtpEmail {
  readonly from: { readonly name: string; readonly address: string }
  readonly to: string
  readonly replyTo?: string
  readonly subject: string
  readonly text: string
}

/** A header-safe one-line text: control characters (CR and LF included) become spaces. */
// eslint-disable-next-line no-control-regex -- the point is to match control characters
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim()

/**
 * The email of a one-time code at `now`: the subject names the app (never the code, which mail clients show in
 * notifications and logs keep), the text names the app, the code and when it expires, in minutes from `now` and as
 * a UTC time. The sender, reply-to and app name come from the message (the platform's configuration) or else from
 * `options`.
 */
export const render = (
  message: OtpDelivery.OtpMessage,
  options: Pick<Options, "fromAddress" | "fromName" | "appName">,
  now: DateTime.Utc
): OtpEmail => {
  const appName = oneLine(message.appName ?? options.appName ?? "Payrail")
  const minutes = Math.max(1, Math.ceil(DateTime.distance(now, message.expiresAt) / 60_000))
  const until = DateTime.formatIso(message.expiresAt).replace(/\.\d+Z$/, "Z")
  return {
    from: {
      name: oneLine(message.fromName ?? options.fromName ?? appName),
      address: message.fromAddress ?? options.fromAddress
    },
    to: message.to,
    ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
    subject: `Your ${appName} verification code`,
    text: [
      `Your ${appName} verification code is:`,
      "",
      `    ${Redacted.value(message.code)}`,
      "",
      `It expires in ${minutes} minute${minutes === 1 ? "" : "s"} (at ${until}).`,
      "If you did not ask for this code, you can ignore this email.",
      ""
    ].join("\n")
  }
}

/**
 * Core's `OtpDelivery` over SMTP with `nodemailer`: each `EMAIL` message is one plain-text email ({@link render}).
 * `SMS` messages cannot go over SMTP and fail with `OtpDeliveryFailed`, as does any refusal by the mail server; the
 * failure is logged with the recipient's channel and the transport's error, never the code or the SMTP credentials.
 * The connection pool is closed when the layer's scope ends.
 */
export const layer = (options: Options): Layer.Layer<OtpDelivery.OtpDelivery> =>
  Layer.scoped(
    OtpDelivery.OtpDelivery,
    Effect.gen(function* () {
      const timeout = Duration.toMillis(options.timeout ?? Duration.seconds(10))
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          nodemailer.createTransport({
            url: Redacted.value(options.url),
            pool: true,
            connectionTimeout: timeout,
            greetingTimeout: timeout,
            socketTimeout: timeout,
            logger: false,
            debug: false
          } as SMTPTransport.Options)
        ),
        (transport) => Effect.sync(() => transport.close())
      )

      const send = (message: OtpDelivery.OtpMessage) =>
        Effect.gen(function* () {
          if (message.channel !== "EMAIL") {
            yield* Effect.logWarning("OTP delivery: no SMS provider is configured; the code was not sent")
            return yield* OtpDelivery.OtpDeliveryFailed.of()
          }
          const now = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
          const email = render(message, options, now)
          yield* Effect.tryPromise({
            try: () => transport.sendMail({ ...email }),
            catch: (error) => error
          }).pipe(
            Effect.catchAll((error) =>
              Effect.zipRight(
                Effect.logWarning("OTP delivery: the mail server did not take the message").pipe(
                  Effect.annotateLogs({
                    error: error instanceof Error ? error.message : "unknown error",
                    channel: message.channel
                  })
                ),
                Effect.fail(OtpDelivery.OtpDeliveryFailed.of())
              )
            )
          )
        }).pipe(Effect.withSpan("OtpDelivery.send", { attributes: { channel: message.channel } }))

      return OtpDelivery.OtpDelivery.of({ send })
    })
  )

/** The environment variable of the SMTP URL (`smtp://user:password@host:587`, `smtps://…`). */
export const URL_VARIABLE = "PAYRAIL_SMTP_URL"
/** The environment variable of the default sender address. */
export const FROM_VARIABLE = "PAYRAIL_SMTP_FROM"

const smtpUrl = Config.redacted(URL_VARIABLE).pipe(
  Config.validate({
    message: `${URL_VARIABLE} must be an smtp:// or smtps:// URL`,
    validation: (url) => /^smtps?:\/\/\S+$/i.test(Redacted.value(url))
  })
)

/**
 * The SMTP options from configuration: `PAYRAIL_SMTP_URL` (redacted) and `PAYRAIL_SMTP_FROM` (required once the URL
 * is set); `None` when `PAYRAIL_SMTP_URL` is not set, so the server can choose another delivery. A URL that is not
 * `smtp:` or `smtps:` is a `ConfigError` whose message names the variable, never its value.
 */
export const fromConfig: Config.Config<Option.Option<Options>> = Config.all({
  url: Config.option(smtpUrl),
  fromAddress: Config.option(Config.string(FROM_VARIABLE))
}).pipe(
  Config.mapOrFail(({ url, fromAddress }) =>
    Option.match(url, {
      onNone: () => Either.right(Option.none()),
      onSome: (configured) =>
        Option.match(fromAddress, {
          onNone: () =>
            Either.left(ConfigError.MissingData([FROM_VARIABLE], `${FROM_VARIABLE} is needed with ${URL_VARIABLE}`)),
          onSome: (from) => Either.right(Option.some({ url: configured, fromAddress: from }))
        })
    })
  )
)

/** {@link layer} configured from `PAYRAIL_SMTP_URL` and `PAYRAIL_SMTP_FROM`, both required. */
export const layerConfig: Layer.Layer<OtpDelivery.OtpDelivery, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(Config.all({ url: smtpUrl, fromAddress: Config.string(FROM_VARIABLE) }), layer)
)
