import { WalletProtocolError, type WalletProtocolErrorCode } from "./WalletProtocolError.js"

/** A successful outcome carrying `value`. */
export interface Ok<A> {
  readonly ok: true
  readonly value: A
}

/** A failed outcome carrying a typed {@link WalletProtocolError}. */
export interface Err {
  readonly ok: false
  readonly error: WalletProtocolError
}

/**
 * The outcome of every decoding, parsing or verifying function of this package: it never throws on bad input, it
 * returns `{ ok: false, error }` with an error whose `code` names what is wrong.
 */
export type Result<A> = Ok<A> | Err

/** Wraps a value as a successful {@link Result}. */
export const ok = <A>(value: A): Ok<A> => ({ ok: true, value })

/** Builds a failed {@link Result} from an error code, a message and optionally the field at fault. */
export const err = (code: WalletProtocolErrorCode, message: string, field?: string): Err => ({
  ok: false,
  error: new WalletProtocolError(code, message, field)
})

/** Returns the value of a successful result and throws its {@link WalletProtocolError} otherwise. */
export const getOrThrow = <A>(result: Result<A>): A => {
  if (result.ok) return result.value
  throw result.error
}

/** Applies `f` to the value of a successful result; a failure passes through unchanged. */
export const map = <A, B>(result: Result<A>, f: (a: A) => B): Result<B> => (result.ok ? ok(f(result.value)) : result)

/** Chains a result-returning step after a successful result; a failure passes through unchanged. */
export const flatMap = <A, B>(result: Result<A>, f: (a: A) => Result<B>): Result<B> =>
  result.ok ? f(result.value) : result
