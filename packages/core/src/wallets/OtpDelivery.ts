import { Context, type DateTime, type Effect, type Redacted, Schema } from "effect"
import type { Platform } from "../platforms/index.js"

/** The delivery could not be handed to the mail or SMS provider. Code `INTERNAL_ERROR` (500); nothing is retried. */
export class OtpDeliveryFailed extends Schema.TaggedError<OtpDeliveryFailed>()("OtpDeliveryFailed", {
  code: Schema.tag("INTERNAL_ERROR"),
  reason: Schema.String
}) {
  static of(): OtpDeliveryFailed {
    return new OtpDeliveryFailed({ reason: "The one-time code could not be sent; try again" })
  }
}

/** One code to deliver: by email (`to` an address) or SMS (`to` an E.164 number). */
export interface OtpMessage {
  readonly platformId: Platform.PlatformId
  readonly channel: "EMAIL" | "SMS"
  readonly to: string
  readonly code: Redacted.Redacted<string>
  readonly expiresAt: DateTime.Utc
  /** From the platform's `embeddedWalletConfig`: the app's name and the email sender, when configured. */
  readonly appName?: string
  readonly fromAddress?: string
  readonly fromName?: string
  readonly replyTo?: string
}

/**
 * Sends wallet one-time codes. The sandbox captures them (its code is always `000000`); the reference server sends
 * email over SMTP when configured. Adapters never log the code.
 */
export class OtpDelivery extends Context.Tag("@payrail/core/OtpDelivery")<
  OtpDelivery,
  { readonly send: (message: OtpMessage) => Effect.Effect<void, OtpDeliveryFailed> }
>() {}
