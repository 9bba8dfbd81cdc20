import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Data, Effect, Redacted, Schema } from "effect"

/** Where a running server's API is and the API token a command talks to it with (`ApiOptions`). */
export interface Target {
  /** The API's base URL with its version (`http://127.0.0.1:8080/2025-10-13`); trailing slashes are dropped. */
  readonly api: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
}

/** A step of a command was refused by the server, got no answer, or got an answer it could not read. */
export class StepFailed extends Data.TaggedError("StepFailed")<{ readonly step: string; readonly detail: string }> {
  override get message() {
    return `${this.step} failed: ${this.detail}`
  }
}

/** The API's base URL without trailing slashes, to which paths beginning with `/` are appended. */
export const baseUrl = (target: Target): string => target.api.replace(/\/+$/, "")

/** The ambient HTTP client sending the token's credentials (HTTP Basic) with every request. */
export const authenticated = (target: Target): Effect.Effect<HttpClient.HttpClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) =>
    client.pipe(
      HttpClient.mapRequest(HttpClientRequest.basicAuth(target.clientId, Redacted.value(target.clientSecret)))
    )
  )

/** Longest part of a refusal's body kept in a `StepFailed` (the error body of the spec fits well within it). */
const detailLength = 500

/**
 * Sends `request` with `client` as the step named `step` and decodes a 2xx answer's JSON body with `schema`. Any
 * other status fails with the status and the start of the body (the server's error body, which names the field or
 * rule); a request that got no answer or an answer that does not match fails with what went wrong.
 */
export const send =
  (client: HttpClient.HttpClient) =>
  <A, I>(step: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Schema<A, I>) =>
    Effect.gen(function* () {
      const response = yield* client.execute(request)
      const text = yield* response.text
      if (response.status >= 300) {
        return yield* new StepFailed({ step, detail: `${response.status} ${text.slice(0, detailLength)}` })
      }
      return yield* Schema.decodeUnknown(Schema.parseJson(schema))(text)
    }).pipe(
      Effect.scoped,
      Effect.catchTags({
        RequestError: (failure) => Effect.fail(new StepFailed({ step, detail: failure.message })),
        ResponseError: (failure) => Effect.fail(new StepFailed({ step, detail: failure.message })),
        ParseError: (failure) => Effect.fail(new StepFailed({ step, detail: `unexpected answer: ${failure.message}` }))
      })
    )
