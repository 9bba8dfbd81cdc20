import { describe, expect, it } from "vitest"
import { Result, SignedRetry } from "../src/index.js"

const challenge = {
  type: "PASSKEY",
  payloadToSign: '{"requestId":"Request:1"}',
  requestId: "Request:019542f5-b3e7-1d02-0000-000000000001",
  expiresAt: "2025-10-13T12:05:00.000Z"
}
const codeAndField = <A>(result: Result.Result<A>) => (result.ok ? undefined : [result.error.code, result.error.field])

describe("SignedRetry.decodeChallenge", () => {
  it("decodes a 202 body given as an object or as JSON text, keeping payloadToSign verbatim", () => {
    for (const input of [challenge, JSON.stringify(challenge)]) {
      expect(Result.getOrThrow(SignedRetry.decodeChallenge(input))).toEqual({
        ...challenge,
        expiresAtMillis: Date.UTC(2025, 9, 13, 12, 5)
      })
    }
  })

  it("accepts a challenge without type (session refresh, export, wallet privacy)", () => {
    const { type: _type, ...untyped } = challenge
    expect(Result.getOrThrow(SignedRetry.decodeChallenge(untyped)).type).toBeUndefined()
  })

  it("names the malformed part", () => {
    expect(codeAndField(SignedRetry.decodeChallenge("{"))).toEqual(["BadJson", "challenge"])
    expect(codeAndField(SignedRetry.decodeChallenge([challenge]))).toEqual(["BadJson", "challenge"])
    expect(codeAndField(SignedRetry.decodeChallenge({ ...challenge, payloadToSign: { a: 1 } }))).toEqual([
      "BadField",
      "payloadToSign"
    ])
    expect(codeAndField(SignedRetry.decodeChallenge({ ...challenge, requestId: undefined }))).toEqual([
      "BadField",
      "requestId"
    ])
    expect(codeAndField(SignedRetry.decodeChallenge({ ...challenge, expiresAt: "in five minutes" }))).toEqual([
      "BadTimestamp",
      "expiresAt"
    ])
  })
})

describe("SignedRetry.ensureOpen", () => {
  const decoded = Result.getOrThrow(SignedRetry.decodeChallenge(challenge))

  it("keeps a challenge open until the instant it expires", () => {
    expect(SignedRetry.ensureOpen(decoded, decoded.expiresAtMillis - 1).ok).toBe(true)
    expect(codeAndField(SignedRetry.ensureOpen(decoded, decoded.expiresAtMillis))).toEqual([
      "ChallengeExpired",
      "expiresAt"
    ])
  })

  it("names the two headers of the retry", () => {
    expect([SignedRetry.SIGNATURE_HEADER, SignedRetry.REQUEST_ID_HEADER]).toEqual([
      "Service-Wallet-Signature",
      "Request-Id"
    ])
  })
})
