import { Effect, Layer } from "effect"
import { KycProvider, Platform, VerificationStatus } from "@payrail/core"

const suffixOf = (value: string | undefined): string => (value ?? "").slice(-3)

/**
 * The KYC status an individual's `fullName` suffix selects in the sandbox: `001` PENDING, `002` REJECTED,
 * `003` UNVERIFIED, anything else APPROVED.
 */
export const kycStatusForName = (fullName: string | undefined): VerificationStatus.KycStatus => {
  switch (suffixOf(fullName)) {
    case "001":
      return "PENDING"
    case "002":
      return "REJECTED"
    case "003":
      return "UNVERIFIED"
    default:
      return "APPROVED"
  }
}

/**
 * Whether a new customer's status resolves at creation: on regulated platforms, with skip-paperwork on, and on
 * platforms with the platform stablecoin (whose customers the spec approves at creation for the wallet flow).
 * Elsewhere customers stay `UNVERIFIED` until they submit a verification.
 */
export const resolvesAtCreation = (platform: Platform.Platform): boolean =>
  Platform.resolvesVerificationAtCreation(platform) || Platform.supportsPlatformStablecoin(platform)

/**
 * The sandbox KYC/KYB provider. Individuals follow the `fullName` suffix where the platform resolves at
 * creation; businesses are always created `UNVERIFIED` (KYB decides at the first verification submission).
 */
export const layer: Layer.Layer<KycProvider.KycProvider> = Layer.succeed(KycProvider.KycProvider, {
  initialVerification: ({ platform, request }) =>
    Effect.succeed(
      request.customerType === "INDIVIDUAL"
        ? {
            customerType: "INDIVIDUAL",
            kycStatus: resolvesAtCreation(platform) ? kycStatusForName(request.fullName) : "UNVERIFIED"
          }
        : { customerType: "BUSINESS", kybStatus: "UNVERIFIED" }
    )
})
