import { FieldError, InvalidInput } from "@payrail/core"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect } from "effect"

// Keys that shadow `Object.prototype`'s conversions: an object holding one as data cannot be turned into a string,
// and Effect's union decoding does exactly that with a discriminant it finds (`String(input.customerType)`), which
// throws. No Payrail body has such a key, so they are refused up front as field errors.
const shadowingKeys = new Set(["toString", "valueOf", "toLocaleString", "constructor", "__proto__"])

/** The dot path of the first object in `value` holding a key that shadows `Object.prototype`, if any. */
const shadowingPath = (value: unknown, path: string): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = shadowingPath(value[index], `${path}[${index}]`)
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const key of Object.keys(value)) {
    const keyPath = path === "" ? key : `${path}.${key}`
    if (shadowingKeys.has(key)) return keyPath
    const found = shadowingPath((value as Record<string, unknown>)[key], keyPath)
    if (found !== undefined) return found
  }
  return undefined
}

// Only a body that could spell such a key (directly or through a `\u` escape) is walked: the common body costs a
// few `includes`.
const mayShadow = (text: string): boolean =>
  text.includes("\\u") ||
  text.includes("toString") ||
  text.includes("valueOf") ||
  text.includes("toLocaleString") ||
  text.includes("constructor") ||
  text.includes("__proto__")

/**
 * `request.json`, an empty body read as `{}`, refusing (400 `INVALID_INPUT`, naming the field) a body whose objects
 * hold a key that shadows an `Object.prototype` member. Such a value reaching a schema union's discriminant would fail inside the decoder
 * (Effect 3.22's union search converts it with `String`) instead of as a field error.
 */
export const json = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<unknown, HttpServerError.RequestError> =>
  Effect.flatMap(request.text, (text) => (text.length === 0 ? Effect.succeed({}) : parsed(request)))

// A body without any byte reads as `{}`: an operation whose body fields are all optional (`POST
// /transactions/{id}/confirm`) accepts a request without one, with or without a Content-Type, as it accepts `{}`;
// any other answers 400 naming its missing fields.
const parsed = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown, HttpServerError.RequestError> =>
  Effect.flatMap(request.json, (body) => {
    if (typeof body !== "object" || body === null) return Effect.succeed(body)
    return Effect.flatMap(request.text, (text) => {
      const field = mayShadow(text) ? shadowingPath(body, "") : undefined
      if (field === undefined) return Effect.succeed(body)
      // A defect the error mapping renders as the declared 400: the body reader's error channel has no room for it.
      return Effect.die(
        InvalidInput.InvalidInput.withErrors([
          new FieldError.FieldError({ field, message: "is not an accepted property name" })
        ])
      )
    })
  })

/** `request` with `json` read through `json` above; everything else is the request's own. */
export const guarded = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest =>
  new Proxy(request, {
    get: (target, property) => (property === "json" ? json(target) : Reflect.get(target, property, target))
  })
