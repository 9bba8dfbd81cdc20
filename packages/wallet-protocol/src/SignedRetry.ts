import { asJsonObject, parseJson, stringField } from "./internal/json.js"
import { err, ok, type Result } from "./Result.js"

/** The header that carries the stamp on a signed retry (Grid names the same value `Grid-Wallet-Signature`). */
export const SIGNATURE_HEADER = "Service-Wallet-Signature"
/** The header that carries the challenge's `requestId` on a signed retry. */
export const REQUEST_ID_HEADER = "Request-Id"

/**
 * The body of a 202 signed-retry challenge. `payloadToSign` is opaque and is stamped byte for byte; `type` is
 * present on credential and session challenges only.
 */
export interface Challenge {
  readonly payloadToSign: string
  readonly requestId: string
  readonly expiresAt: string
  readonly type?: string
}

/** A {@link Challenge} that passed {@link decodeChallenge}, with `expiresAt` as epoch milliseconds. */
export interface DecodedChallenge extends Challenge {
  readonly expiresAtMillis: number
}

/**
 * Decodes a challenge body given as parsed JSON or as JSON text. Fails with `BadJson`, `BadField` (a missing or
 * non-string `payloadToSign`, `requestId` or `expiresAt`) or `BadTimestamp` (an `expiresAt` that is not a date-time).
 * Extra fields are ignored.
 */
export const decodeChallenge = (input: unknown): Result<DecodedChallenge> => {
  const parsed = typeof input === "string" ? parseJson(input, "challenge") : ok(input)
  if (!parsed.ok) return parsed
  const object = asJsonObject(parsed.value, "challenge")
  if (!object.ok) return object
  const payloadToSign = stringField(object.value, "payloadToSign")
  if (!payloadToSign.ok) return payloadToSign
  const requestId = stringField(object.value, "requestId")
  if (!requestId.ok) return requestId
  const expiresAt = stringField(object.value, "expiresAt")
  if (!expiresAt.ok) return expiresAt
  const expiresAtMillis = Date.parse(expiresAt.value)
  if (Number.isNaN(expiresAtMillis)) return err("BadTimestamp", "not a date-time", "expiresAt")
  const type = object.value["type"]
  return ok({
    payloadToSign: payloadToSign.value,
    requestId: requestId.value,
    expiresAt: expiresAt.value,
    expiresAtMillis,
    ...(typeof type === "string" ? { type } : {})
  })
}

/**
 * Checks that a decoded challenge is still open at `nowMillis`: fails with `ChallengeExpired` once `expiresAt` is
 * reached, so a client can start the operation again instead of sending a retry the server must refuse.
 */
export const ensureOpen = (challenge: DecodedChallenge, nowMillis: number): Result<DecodedChallenge> =>
  challenge.expiresAtMillis > nowMillis
    ? ok(challenge)
    : err("ChallengeExpired", `the challenge expired at ${challenge.expiresAt}`, "expiresAt")
