import { Context, DateTime, Effect, Encoding, Layer } from "effect"
import type { CustomerErrors } from "../customers/index.js"
import { Ids, type InvalidInput, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { Passkeys, RelyingParties } from "../wallets/index.js"
import { EnrolledFactor, recoveryDigest, type ScaFactorView, viewOf } from "./EnrolledFactor.js"
import { PasskeyAlreadyEnrolled, type ScaConflict, ScaNotFound, ScaRefused } from "./ScaErrors.js"
import { ScaProofs, sandboxCode } from "./ScaProofs.js"
import { ScaRepo } from "./ScaRepo.js"
import type { ConfirmRequest, EnrollRequest } from "./ScaRequest.js"
import * as Totp from "./Totp.js"

type CustomerFailure = CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | StoreFailure.StoreFailure

/** What `POST /sca/factors` answers: the TOTP secret to scan, or the WebAuthn registration options. */
export type EnrollStart =
  | { readonly type: "TOTP"; readonly secret: string; readonly secretBase32Encoded: string; readonly totpUri: string }
  | {
      readonly type: "PASSKEY"
      readonly options: Record<string, unknown>
      readonly allowedOrigins: ReadonlyArray<string>
      readonly relyingPartyId: string
    }

/** What `POST /sca/factors/confirm` answers: TOTP recovery codes (shown once), or the enrolled passkey. */
export type EnrollResult =
  | { readonly type: "TOTP"; readonly recoveryCodes: ReadonlyArray<string> }
  | { readonly type: "PASSKEY"; readonly factor: ScaFactorView }

/**
 * A customer's SCA factors. `SMS_OTP` is implicit for a customer with a phone number; `TOTP` and `PASSKEY` are
 * enrolled (start, then confirm with the first code or the device's credential). Guarantees: only SCA customers
 * (409 otherwise); one passkey per customer (409 `PASSKEY_ALREADY_ENROLLED`); confirming a TOTP replaces any earlier
 * TOTP factor; a TOTP code is checked per RFC 6238 (or is `123456` on sandbox platforms); a passkey registration is
 * checked by the `Passkeys` port against the platform's relying party.
 */
export class ScaFactors extends Context.Tag("@payrail/core/ScaFactors")<
  ScaFactors,
  {
    readonly list: (
      platform: Platform.Platform,
      customerId: string
    ) => Effect.Effect<{ readonly factors: ReadonlyArray<ScaFactorView> }, ScaConflict | CustomerFailure>
    readonly enroll: (
      platform: Platform.Platform,
      customerId: string,
      request: EnrollRequest
    ) => Effect.Effect<EnrollStart, ScaConflict | PasskeyAlreadyEnrolled | InvalidInput.InvalidInput | CustomerFailure>
    readonly confirm: (
      platform: Platform.Platform,
      customerId: string,
      request: ConfirmRequest
    ) => Effect.Effect<EnrollResult, ScaConflict | ScaRefused | InvalidInput.InvalidInput | CustomerFailure>
    /** Deletes the customer's passkey `credentialId` (204); 404 when it has none such. */
    readonly remove: (
      platform: Platform.Platform,
      customerId: string,
      credentialId: string
    ) => Effect.Effect<void, ScaConflict | ScaNotFound | CustomerFailure>
  }
>() {}

const base64Url = (bytes: Uint8Array) => Encoding.encodeBase64Url(bytes)

const recoveryCode = (bytes: Uint8Array) => {
  const text = Totp.base32(bytes).slice(0, 12)
  return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8, 12)}`
}

const field = (value: unknown, key: string): string => {
  const found = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined
  return typeof found === "string" ? found : ""
}

export const layer = Layer.effect(
  ScaFactors,
  Effect.gen(function* () {
    const proofs = yield* ScaProofs
    const repo = yield* ScaRepo
    const ids = yield* Ids.Ids
    const store = yield* UnitOfWork.UnitOfWork
    const passkeys = yield* Passkeys.Passkeys

    const list = Effect.fn("ScaFactors.list")(function* (platform: Platform.Platform, customerId: string) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      const enrolled = (yield* repo.listFactors(platform.id, customer.id)).filter((f) => f.status === "ACTIVE")
      const sms: ReadonlyArray<ScaFactorView> = customer.phoneNumber === undefined ? [] : [{ factor: "SMS_OTP" }]
      return { factors: [...sms, ...enrolled.map(viewOf)] }
    })

    const enroll = Effect.fn("ScaFactors.enroll")(function* (
      platform: Platform.Platform,
      customerId: string,
      request: EnrollRequest
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      const factors = yield* repo.listFactors(platform.id, customer.id)
      const now = yield* DateTime.now
      const id = `ScaFactor:${yield* ids.uuid}`
      // A new start replaces an unconfirmed one of the same type.
      for (const pending of factors.filter((f) => f.status === "PENDING" && f.factor === request.type)) {
        yield* repo.deleteFactor(platform.id, customer.id, pending.id)
      }
      if (request.type === "TOTP") {
        const raw = yield* ids.randomBytes(20)
        const secretBase32Encoded = Totp.base32(raw)
        yield* repo.putFactor(
          platform.id,
          new EnrolledFactor({
            id,
            customerId: customer.id,
            factor: "TOTP",
            status: "PENDING",
            secret: secretBase32Encoded,
            createdAt: now
          })
        )
        return {
          type: "TOTP" as const,
          secret: secretBase32Encoded,
          secretBase32Encoded,
          totpUri: Totp.provisioningUri(platform.name, customer.email ?? customer.id, secretBase32Encoded)
        }
      }
      if (factors.some((f) => f.factor === "PASSKEY" && f.status === "ACTIVE")) {
        return yield* PasskeyAlreadyEnrolled.of(customer.id)
      }
      const party = yield* RelyingParties.of(platform)
      const challenge = base64Url(yield* ids.randomBytes(32))
      yield* repo.putFactor(
        platform.id,
        new EnrolledFactor({
          id,
          customerId: customer.id,
          factor: "PASSKEY",
          status: "PENDING",
          challenge,
          createdAt: now
        })
      )
      return {
        type: "PASSKEY" as const,
        options: {
          // WebAuthn's JSON options carry the challenge's bytes in base64url: here the UTF-8 bytes of the stored
          // challenge, which is what the Passkeys port checks the authenticator signed.
          challenge: base64Url(new TextEncoder().encode(challenge)),
          rp: { id: party.rpId, name: platform.name },
          user: {
            id: base64Url(new TextEncoder().encode(customer.id)),
            name: customer.email ?? customer.id,
            displayName: customer.email ?? customer.id
          },
          pubKeyCredParams: [
            { type: "public-key", alg: -7 },
            { type: "public-key", alg: -257 }
          ],
          timeout: 300_000,
          attestation: "none"
        },
        allowedOrigins: party.origins,
        relyingPartyId: party.rpId
      }
    })

    const confirm = Effect.fn("ScaFactors.confirm")(function* (
      platform: Platform.Platform,
      customerId: string,
      request: ConfirmRequest
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      const factors = yield* repo.listFactors(platform.id, customer.id)
      const now = yield* DateTime.now
      if (request.type === "TOTP") {
        const pending = factors.find(
          (f) => f.factor === "TOTP" && f.status === "PENDING" && f.secret === request.secret
        )
        if (pending === undefined || pending.secret === undefined) return yield* ScaRefused.of("enrollment_not_found")
        const right =
          (platform.environment === "SANDBOX" && request.code === sandboxCode) ||
          (yield* Totp.verify(pending.secret, request.code, DateTime.toEpochMillis(now)))
        if (!right) return yield* ScaRefused.of("code_mismatch")
        const recoveryCodes = yield* Effect.forEach(Array.from({ length: 8 }), () =>
          Effect.map(ids.randomBytes(8), recoveryCode)
        )
        const recoveryCodeDigests = yield* Effect.forEach(recoveryCodes, (code) => recoveryDigest(pending.id, code))
        yield* store.transaction(
          Effect.gen(function* () {
            for (const earlier of factors.filter((f) => f.factor === "TOTP" && f.id !== pending.id)) {
              yield* repo.deleteFactor(platform.id, customer.id, earlier.id)
            }
            yield* repo.putFactor(
              platform.id,
              new EnrolledFactor({ ...pending, status: "ACTIVE", recoveryCodeDigests })
            )
          })
        )
        return { type: "TOTP" as const, recoveryCodes }
      }
      const pending = factors.find((f) => f.factor === "PASSKEY" && f.status === "PENDING")
      if (pending === undefined || pending.challenge === undefined) return yield* ScaRefused.of("enrollment_not_found")
      const party = yield* RelyingParties.of(platform)
      if (!party.origins.includes(request.origin)) return yield* ScaRefused.of("passkey_invalid")
      const response = request.credential["response"]
      const registered = yield* passkeys
        .verifyRegistration({
          challenge: pending.challenge,
          attestation: {
            credentialId: field(request.credential, "id"),
            clientDataJson: field(response, "clientDataJSON"),
            attestationObject: field(response, "attestationObject"),
            transports: []
          },
          relyingParty: party
        })
        .pipe(Effect.mapError(() => ScaRefused.of("passkey_invalid")))
      const active = new EnrolledFactor({
        ...pending,
        status: "ACTIVE",
        credentialId: registered.credentialId,
        publicKey: registered.key.publicKey,
        counter: registered.key.counter,
        challenge: undefined
      })
      yield* repo.putFactor(platform.id, active)
      return { type: "PASSKEY" as const, factor: viewOf(active) }
    })

    const remove = Effect.fn("ScaFactors.remove")(function* (
      platform: Platform.Platform,
      customerId: string,
      credentialId: string
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      const factors = yield* repo.listFactors(platform.id, customer.id)
      const found = factors.find((f) => f.status === "ACTIVE" && f.credentialId === credentialId)
      if (found === undefined || !(yield* repo.deleteFactor(platform.id, customer.id, found.id))) {
        return yield* ScaNotFound.of("factor", credentialId)
      }
    })

    return ScaFactors.of({ list, enroll, confirm, remove })
  })
)
