import { Effect, Layer } from "effect"
import { Sha256, StablecoinErrors, StablecoinProvider } from "@payrail/core"

/**
 * The sandbox stablecoin provider (docs/stablecoins.md, "Sandbox"): deterministic, with magic values.
 *
 * - Linking: the secret `sandbox_invalid_secret` is refused (400 `STABLECOIN_PROVIDER_ACCOUNT_INVALID`, nothing is
 *   linked). Without `providerAccountId`, the credentials open one account, `sandbox_<16 hex of the client id's
 *   SHA-256>`. A `providerAccountId` ending in `_invalid` or `_revoked` is linked with that status (`INVALID`,
 *   `REVOKED`): the provider reports its credentials so, and the link registers and moves nothing.
 * - Tokens: every token is a USD stablecoin with 6 decimals, named `<providerTokenIdentifier> Sandbox Dollar`, its
 *   symbol the identifier up to the first `_`. An identifier ending in `_PROVISIONING` is still being provisioned
 *   (`issuanceStatus: PROVISIONING`: no mint or burn); every other one is `PROVISIONED`.
 * - Mints and burns complete at once (`providerStatus: complete`), unless the operation's `description` is
 *   `SANDBOX_PROVIDER_FAILED` (the operation is `FAILED`, `failureReason: PROVIDER_TRANSFER_FAILED`, nothing moves)
 *   or `SANDBOX_PROVIDER_UNAVAILABLE` (503 `SERVICE_UNAVAILABLE`, nothing is recorded), or, on a mint,
 *   `SANDBOX_PROVIDER_PENDING` (`PENDING`, `providerStatus: pending`, as a wire-funded mint awaiting its funds; its
 *   settlement completes it). `SANDBOX_PROVIDER_PENDING_FAILS`, on a mint or a burn, is taken `PENDING` and its
 *   settlement fails (`FAILED`, `failureReason: PROVIDER_SETTLEMENT_FAILED`): a mint credits nothing, a burn's
 *   debit of the supply is reversed.
 *
 * The secret is never kept: the link's credential reference is a digest of the client id and secret.
 */
export const invalidSecret = "sandbox_invalid_secret"
export const failedDescription = "SANDBOX_PROVIDER_FAILED"
export const unavailableDescription = "SANDBOX_PROVIDER_UNAVAILABLE"
export const pendingDescription = "SANDBOX_PROVIDER_PENDING"
export const pendingFailsDescription = "SANDBOX_PROVIDER_PENDING_FAILS"

const statusOf = (providerAccountId: string) =>
  providerAccountId.endsWith("_invalid") ? "INVALID" : providerAccountId.endsWith("_revoked") ? "REVOKED" : "ACTIVE"

export const layer: Layer.Layer<StablecoinProvider.StablecoinProvider> = Layer.succeed(
  StablecoinProvider.StablecoinProvider,
  StablecoinProvider.StablecoinProvider.of({
    verify: (request) =>
      Effect.gen(function* () {
        if (request.apiClientSecret === invalidSecret) return yield* StablecoinErrors.ProviderAccountInvalid.of()
        const clientDigest = yield* Sha256.hex(request.apiClientId)
        const providerAccountId = request.providerAccountId ?? `sandbox_${clientDigest.slice(0, 16)}`
        const credentialRef = `sandbox:${yield* Sha256.hex(`${request.apiClientId}\n${request.apiClientSecret}`)}`
        return { providerAccountId, credentialRef, status: statusOf(providerAccountId) }
      }),
    token: (request) =>
      Effect.succeed({
        name: `${request.providerTokenIdentifier} Sandbox Dollar`,
        symbol: request.providerTokenIdentifier.split("_")[0] ?? request.providerTokenIdentifier,
        baseCurrency: "USD",
        decimals: 6,
        issuanceStatus: request.providerTokenIdentifier.endsWith("_PROVISIONING") ? "PROVISIONING" : "PROVISIONED"
      }),
    transfer: (request) =>
      request.description === unavailableDescription
        ? Effect.fail(StablecoinErrors.ProviderUnavailable.of(request.link.account.provider))
        : Effect.succeed(
            (request.description === pendingDescription && request.operationType === "MINT") ||
              request.description === pendingFailsDescription
              ? { status: "PENDING", providerStatus: "pending" }
              : request.description === failedDescription
                ? { status: "FAILED", providerStatus: "failed", failureReason: "PROVIDER_TRANSFER_FAILED" }
                : { status: "COMPLETED", providerStatus: "complete" }
          ),
    settle: (request) =>
      Effect.succeed(
        request.description === pendingFailsDescription
          ? { status: "FAILED", providerStatus: "failed", failureReason: "PROVIDER_SETTLEMENT_FAILED" }
          : { status: "COMPLETED", providerStatus: "complete" }
      )
  })
)
