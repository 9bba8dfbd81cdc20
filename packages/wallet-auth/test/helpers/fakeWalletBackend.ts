import { randomUUID } from "node:crypto"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { Ids } from "@payrail/core"
import { OtpTargets, StampVerifier } from "../../src/index.js"

/** The OTP signer key of the shared vectors; its public key is the one the signer README pins. */
const OTP_SIGNER_PRIVATE_KEY = "67fc72c4d7a48947ad73eb01312057d0cebaeaa1d0630d104414b180cd616b4a"

interface Pending {
  readonly payloadToSign: string
  readonly sessionPublicKeys: ReadonlyArray<string>
  readonly expiresAtMillis: number
  readonly complete: () => { readonly status: number; readonly body?: unknown }
}

type Reply = { readonly status: number; readonly body?: unknown }

/**
 * Just enough of the Payrail wallet endpoints, on the real wallet-auth services, to run a device flow through
 * `fetch`: OTP challenge and verify with a signed retry, and session revocation with a signed retry.
 */
export const makeFakeWalletBackend = () => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      StampVerifier.layer,
      OtpTargets.layer({ signerPrivateKey: Redacted.make(OTP_SIGNER_PRIVATE_KEY) })
    ).pipe(Layer.provide(Ids.layer))
  )
  const targets = new Map<string, Redacted.Redacted<string>>()
  const pending = new Map<string, Pending>()
  const sessions = new Map<string, string>()

  const challenge = (type: string | undefined, keys: ReadonlyArray<string>, complete: Pending["complete"]): Reply => {
    const requestId = `Request:${randomUUID()}`
    const payloadToSign = JSON.stringify({ requestId, issuedAt: Date.now() }, null, 2)
    const expiresAtMillis = Date.now() + 5 * 60_000
    pending.set(requestId, { payloadToSign, sessionPublicKeys: keys, expiresAtMillis, complete })
    const body = { payloadToSign, requestId, expiresAt: new Date(expiresAtMillis).toISOString() }
    return { status: 202, body: type === undefined ? body : { type, ...body } }
  }

  const retry = (headers: Headers): Effect.Effect<Reply> =>
    Effect.gen(function* () {
      const requestId = headers.get("request-id") ?? ""
      const request = pending.get(requestId)
      if (request === undefined || request.expiresAtMillis <= Date.now())
        return { status: 401, body: { code: "UNAUTHORIZED" } }
      pending.delete(requestId)
      const verifier = yield* StampVerifier.StampVerifier
      const verified = yield* Effect.either(
        verifier.verify({
          stamp: headers.get("service-wallet-signature") ?? "",
          payloadToSign: request.payloadToSign,
          sessionPublicKeys: request.sessionPublicKeys
        })
      )
      return verified._tag === "Right"
        ? request.complete()
        : { status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } }
    }).pipe(Effect.provide(runtime))

  const route = (method: string, path: string, headers: Headers, body: Record<string, unknown>): Effect.Effect<Reply> =>
    Effect.gen(function* () {
      const signed = headers.has("service-wallet-signature")
      const otpTargets = yield* OtpTargets.OtpTargets
      const credential = /^\/auth\/credentials\/([^/]+)\/(challenge|verify)$/.exec(path)
      if (method === "POST" && credential?.[2] === "challenge") {
        const target = yield* otpTargets.issue
        targets.set(credential[1] ?? "", target.targetPrivateKey)
        return {
          status: 200,
          body: { id: credential[1], type: "EMAIL_OTP", otpEncryptionTargetBundle: target.otpEncryptionTargetBundle }
        }
      }
      if (method === "POST" && credential?.[2] === "verify") {
        if (signed) return yield* retry(headers)
        const targetPrivateKey = targets.get(credential[1] ?? "")
        if (targetPrivateKey === undefined) return { status: 404 }
        const opened = yield* Effect.either(
          otpTargets.verify({
            encryptedOtpBundle: String(body["encryptedOtpBundle"]),
            targetPrivateKey,
            expectedOtpCode: "000000"
          })
        )
        if (opened._tag === "Left") return { status: 401, body: { code: "UNAUTHORIZED", reason: opened.left.check } }
        return challenge("EMAIL_OTP", [opened.right.publicKey], () => {
          const id = `Session:${randomUUID()}`
          sessions.set(id, opened.right.publicKey)
          return {
            status: 200,
            body: { id, type: "EMAIL_OTP", expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }
          }
        })
      }
      const session = /^\/auth\/sessions\/([^/]+)$/.exec(path)
      const sessionKey = sessions.get(session?.[1] ?? "")
      if (method === "DELETE" && session !== null && sessionKey !== undefined) {
        if (signed) return yield* retry(headers)
        return challenge(undefined, [sessionKey], () => {
          sessions.delete(session[1] ?? "")
          return { status: 204 }
        })
      }
      return { status: 404 }
    }).pipe(Effect.provide(runtime))

  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input)
    const path = url.pathname.replace(/^\/wallet/, "")
    const body = typeof init.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {}
    const reply = await Effect.runPromise(route(init.method ?? "GET", path, new Headers(init.headers), body))
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status })
  }

  return { fetch, sessions, dispose: () => runtime.dispose() }
}
