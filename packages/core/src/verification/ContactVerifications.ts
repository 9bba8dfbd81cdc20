import { Context, DateTime, Effect, Layer, Option, Redacted } from "effect"
import { type Customer, type CustomerErrors, ContactVerification, Customers } from "../customers/index.js"
import { Ids, RateLimit, RateLimited, RateLimiter, Sha256, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { OtpDelivery } from "../wallets/index.js"
import {
  type ContactChannel,
  ContactCode,
  codeLength,
  isOpen,
  lifetimeMinutes,
  maxFailedAttempts,
  sandboxCode
} from "./ContactCode.js"
import { ContactCodeRepo } from "./ContactCodeRepo.js"
import { ContactCodeRefused, ContactVerificationConflict } from "./ContactVerificationErrors.js"

/** Codes sent to one contact of a customer: 3 per 90 seconds, so a code cannot be re-sent in a tight loop. */
export const sendLimit: RateLimit.RateLimit = RateLimit.perWindow("contact_code_per_contact", 3, 90_000)

type CustomerFailure = CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | StoreFailure.StoreFailure

/**
 * Verification of a customer's email and phone number, in the regions that use it
 * (`ContactVerification.usesContactVerification`: the EEA, the United Kingdom and Switzerland).
 *
 * Guarantees: a code is 6 digits, `123456` on sandbox platforms (nothing is sent) and drawn from `Ids` otherwise
 * (delivered through `OtpDelivery`); only a salted SHA-256 of it is stored, it expires `lifetimeMinutes` after it
 * was sent, and `maxFailedAttempts` wrong codes void it. Sending again replaces the outstanding code. A code only
 * verifies the contact it was sent to. Of concurrent correct confirms exactly one verifies (the others are refused
 * `contact_code_not_requested`); the contact becomes `VERIFIED` and `CUSTOMER.UPDATED` is recorded in the unit of
 * work that consumes the code. A deleted customer fails `CustomerDeleted`; codes are never logged.
 */
export class ContactVerifications extends Context.Tag("@payrail/core/ContactVerifications")<
  ContactVerifications,
  {
    /** Sends (or re-sends) a code to the customer's email or phone; at most `sendLimit` (429 beyond it). */
    readonly send: (
      platform: Platform.Platform,
      customerId: Customer.CustomerId,
      channel: ContactChannel
    ) => Effect.Effect<
      void,
      ContactVerificationConflict | OtpDelivery.OtpDeliveryFailed | RateLimited.RateLimited | CustomerFailure
    >
    /** Confirms the code sent last: the customer, its contact now `VERIFIED`. */
    readonly confirm: (
      platform: Platform.Platform,
      customerId: Customer.CustomerId,
      channel: ContactChannel,
      code: string
    ) => Effect.Effect<Customer.Customer, ContactVerificationConflict | ContactCodeRefused | CustomerFailure>
  }
>() {}

// The contact a code for `channel` goes to, if the customer can verify it now.
const destinationOf = (customer: Customer.Customer, channel: ContactChannel) => {
  if (!ContactVerification.usesContactVerification(customer.region)) {
    return Effect.fail(ContactVerificationConflict.of("contact_verification_not_used", customer.id))
  }
  const destination = channel === "email" ? customer.email : customer.phoneNumber
  if (destination === undefined) {
    return Effect.fail(
      ContactVerificationConflict.of(channel === "email" ? "no_email_to_verify" : "no_phone_to_verify", customer.id)
    )
  }
  return customer.contactVerification?.[channel] === "VERIFIED"
    ? Effect.fail(ContactVerificationConflict.of("contact_already_verified", customer.id))
    : Effect.succeed(destination)
}

// Salted by the code's id, so equal codes of two customers never share a digest.
const digestOf = (id: string, code: string) => Sha256.hex(`contact-code:${id}:${code}`)

// Rejection sampling over 32-bit draws keeps every 6-digit code equally likely.
const randomCode = (ids: Context.Tag.Service<Ids.Ids>): Effect.Effect<string> =>
  Effect.flatMap(ids.randomBytes(4), (bytes) => {
    const value = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0)
    const space = 10 ** codeLength
    return value >= Math.floor(0x1_0000_0000 / space) * space
      ? randomCode(ids)
      : Effect.succeed(String(value % space).padStart(codeLength, "0"))
  })

export const layer = Layer.effect(
  ContactVerifications,
  Effect.gen(function* () {
    const customers = yield* Customers.Customers
    const codes = yield* ContactCodeRepo
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const delivery = yield* OtpDelivery.OtpDelivery
    const limiter = yield* RateLimiter.RateLimiter

    const send = Effect.fn("ContactVerifications.send")(function* (
      platform: Platform.Platform,
      customerId: Customer.CustomerId,
      channel: ContactChannel
    ) {
      const destination = yield* destinationOf(yield* customers.requireLive(platform, customerId), channel)
      const admission = yield* limiter.consume(`contact-code:${platform.id}:${customerId}:${channel}`, sendLimit)
      if (!admission.admitted) return yield* RateLimited.RateLimited.of(sendLimit, admission.retryAfterMillis)
      const sandbox = platform.environment === "SANDBOX"
      const code = sandbox ? sandboxCode : yield* randomCode(ids)
      const id = yield* ids.uuid
      const expiresAt = DateTime.add(yield* DateTime.now, { minutes: lifetimeMinutes })
      const codeDigest = yield* digestOf(id, code)
      yield* codes.put(
        platform.id,
        new ContactCode({ id, customerId, channel, destination, codeDigest, expiresAt, failedAttempts: 0 })
      )
      if (sandbox) return
      const config = platform.config.embeddedWalletConfig
      yield* delivery.send({
        platformId: platform.id,
        channel: channel === "email" ? "EMAIL" : "SMS",
        to: destination,
        code: Redacted.make(code),
        expiresAt,
        ...(config?.appName === undefined ? {} : { appName: config.appName }),
        ...(config?.sendFromEmailAddress === undefined ? {} : { fromAddress: config.sendFromEmailAddress }),
        ...(config?.sendFromEmailSenderName === undefined ? {} : { fromName: config.sendFromEmailSenderName }),
        ...(config?.replyToEmailAddress === undefined ? {} : { replyTo: config.replyToEmailAddress })
      })
    })

    const confirm = Effect.fn("ContactVerifications.confirm")(function* (
      platform: Platform.Platform,
      customerId: Customer.CustomerId,
      channel: ContactChannel,
      code: string
    ) {
      const destination = yield* destinationOf(yield* customers.requireLive(platform, customerId), channel)
      const outstanding = yield* codes.find(platform.id, customerId, channel)
      if (Option.isNone(outstanding) || outstanding.value.destination !== destination) {
        return yield* ContactCodeRefused.of("contact_code_not_requested")
      }
      const sent = outstanding.value
      if (sent.failedAttempts >= maxFailedAttempts)
        return yield* ContactCodeRefused.of("contact_code_attempts_exhausted")
      if (!isOpen(sent, yield* DateTime.now)) return yield* ContactCodeRefused.of("contact_code_expired")
      if ((yield* digestOf(sent.id, code)) !== sent.codeDigest) {
        yield* codes.recordFailure(platform.id, customerId, channel, sent.id)
        return yield* ContactCodeRefused.of("contact_code_mismatch")
      }
      return yield* store.transaction(
        Effect.gen(function* () {
          // The code is consumed first: of concurrent confirms only the one that takes it goes on.
          if (!(yield* codes.take(platform.id, customerId, channel, sent.id))) {
            return yield* ContactCodeRefused.of("contact_code_not_requested")
          }
          const verified = yield* customers.markContactVerified(platform, customerId, channel, destination)
          // The contact changed since the code was sent: it verifies nothing, and failing rolls its taking back.
          return yield* Option.match(verified, {
            onNone: () => Effect.fail(ContactCodeRefused.of("contact_code_not_requested")),
            onSome: Effect.succeed
          })
        })
      )
    })

    return ContactVerifications.of({ send, confirm })
  })
)
