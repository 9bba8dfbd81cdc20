import { Context, Effect, Layer, Option } from "effect"
import { OtpDelivery, type Platform } from "@payrail/core"

/** How many recipients' latest messages the sandbox keeps; the least recently messaged is forgotten first. */
export const CAPACITY = 1_000

/**
 * What the sandbox captured instead of sending: the latest one-time-code message per platform and recipient. The
 * code stays `Redacted`, so printing or logging a captured message never shows it; a console that must show it reads
 * it with `Redacted.value`.
 */
export interface SandboxOtpOutboxService {
  /** The latest message sent to `to` (an email address or E.164 number, as sent) on the platform. */
  readonly latest: (platformId: Platform.PlatformId, to: string) => Effect.Effect<Option.Option<OtpDelivery.OtpMessage>>
  /** Every kept message of the platform, the most recent first. */
  readonly list: (platformId: Platform.PlatformId) => Effect.Effect<ReadonlyArray<OtpDelivery.OtpMessage>>
}

/** Tag of the {@link SandboxOtpOutboxService}: read by tests and the sandbox console. */
export class SandboxOtpOutbox extends Context.Tag("@payrail/sandbox/SandboxOtpOutbox")<
  SandboxOtpOutbox,
  SandboxOtpOutboxService
>() {}

/**
 * The sandbox `OtpDelivery` and the outbox it fills, sharing one in-memory store bounded to {@link CAPACITY}
 * recipients: `send` always succeeds, keeps the message (replacing the recipient's earlier one) and sends and logs
 * nothing. A platform only ever reads its own messages. Each use of the layer has its own store.
 */
export const layer: Layer.Layer<OtpDelivery.OtpDelivery | SandboxOtpOutbox> = Layer.effectContext(
  Effect.sync(() => {
    const messages = new Map<string, OtpDelivery.OtpMessage>()
    const keyOf = (platformId: Platform.PlatformId, to: string) => JSON.stringify([platformId, to])

    const send = (message: OtpDelivery.OtpMessage) =>
      Effect.sync(() => {
        const key = keyOf(message.platformId, message.to)
        // Deleting first moves the recipient to the young end of the Map's insertion order.
        messages.delete(key)
        messages.set(key, message)
        if (messages.size > CAPACITY) {
          const oldest = messages.keys().next()
          if (oldest.done !== true) messages.delete(oldest.value)
        }
      }).pipe(Effect.withSpan("OtpDelivery.send", { attributes: { channel: message.channel } }))

    const latest: SandboxOtpOutboxService["latest"] = (platformId, to) =>
      Effect.sync(() => Option.fromNullable(messages.get(keyOf(platformId, to))))

    const list: SandboxOtpOutboxService["list"] = (platformId) =>
      Effect.sync(() => [...messages.values()].filter((message) => message.platformId === platformId).reverse())

    return Context.make(OtpDelivery.OtpDelivery, { send }).pipe(Context.add(SandboxOtpOutbox, { latest, list }))
  })
)
