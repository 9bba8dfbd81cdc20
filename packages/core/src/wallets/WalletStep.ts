import { Data } from "effect"
import type { SignedRequest } from "./SignedRequest.js"

/**
 * The outcome of one leg of a signed-retry operation: `Challenge` (answer 202 with the request's challenge), or
 * `Done` with the operation's result.
 */
export type WalletStep<A> = Data.TaggedEnum<{
  Challenge: { readonly request: SignedRequest }
  Done: { readonly value: A }
}>

interface WalletStepDefinition extends Data.TaggedEnum.WithGenerics<1> {
  readonly taggedEnum: WalletStep<this["A"]>
}

/** Constructors and matchers of {@link WalletStep}. */
export const { Challenge, Done, $match: match } = Data.taggedEnum<WalletStepDefinition>()
