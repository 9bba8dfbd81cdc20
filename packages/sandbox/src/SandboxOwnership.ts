import { Effect, Layer } from "effect"
import { OwnershipVerifier } from "@payrail/core"

/**
 * The sandbox ownership verifier: no chain is consulted. A signature whose last three characters are `002` is
 * rejected (the account becomes `UNVERIFIED`); any other non-empty signature is accepted, following the spec's
 * magic-suffix style.
 */
export const isAccepted = (signature: string): boolean => signature.length > 0 && !signature.endsWith("002")

export const layer: Layer.Layer<OwnershipVerifier.OwnershipVerifier> = Layer.succeed(
  OwnershipVerifier.OwnershipVerifier,
  {
    verify: ({ signature }) => Effect.succeed(isAccepted(signature))
  }
)
