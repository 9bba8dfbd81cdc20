import { Effect, Layer } from "effect"
import { type CustomerRequest, KycProvider, Platform, VerificationStatus } from "@payrail/core"

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
 * Whether a new customer's status resolves at creation: only on sandbox platforms, and there on regulated
 * platforms, with skip-paperwork on, and on platforms with the platform stablecoin (whose customers the spec
 * approves at creation for the wallet flow). Elsewhere customers stay `UNVERIFIED` until they submit a
 * verification. A production platform never resolves at creation: its outcomes come from a real provider.
 */
export const resolvesAtCreation = (platform: Platform.Platform): boolean =>
  platform.environment === "SANDBOX" &&
  (Platform.resolvesVerificationAtCreation(platform) || Platform.supportsPlatformStablecoin(platform))

/**
 * Whether an individual's request says who the person is: a name, contact, birth date, nationality, address or tax
 * identifier. `platformCustomerId`, `region` and `idType` alone identify no one, so there is nothing to approve.
 */
export const identifiesPerson = (request: CustomerRequest.CreateCustomerRequest): boolean =>
  request.customerType === "INDIVIDUAL" &&
  [
    request.fullName,
    request.email,
    request.phoneNumber,
    request.birthDate,
    request.nationality,
    request.address,
    request.identifier
  ].some((field) => field !== undefined)

/**
 * The KYC status a new individual starts with: the `fullName` suffix where the platform resolves at creation (see
 * `resolvesAtCreation`) and the request identifies the person; otherwise `UNVERIFIED`, so neither a production
 * platform's customer nor a customer created without any identifying field is ever approved here.
 */
export const initialKycStatus = (
  platform: Platform.Platform,
  request: CustomerRequest.CreateCustomerRequest
): VerificationStatus.KycStatus =>
  request.customerType === "INDIVIDUAL" && resolvesAtCreation(platform) && identifiesPerson(request)
    ? kycStatusForName(request.fullName)
    : "UNVERIFIED"

/**
 * The sandbox KYC/KYB provider: individuals start with `initialKycStatus`; businesses are always created
 * `UNVERIFIED` (KYB decides at the first verification submission).
 */
export const layer: Layer.Layer<KycProvider.KycProvider> = Layer.succeed(KycProvider.KycProvider, {
  initialVerification: ({ platform, request }) =>
    Effect.succeed(
      request.customerType === "INDIVIDUAL"
        ? { customerType: "INDIVIDUAL", kycStatus: initialKycStatus(platform, request) }
        : { customerType: "BUSINESS", kybStatus: "UNVERIFIED" }
    )
})
