import { Effect, Layer } from "effect"
import {
  type CustomerRequest,
  KycProvider,
  PacketCheck,
  Platform,
  Verification,
  VerificationStatus
} from "@payrail/core"

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

/** The KYC status a beneficial owner's `personalInfo.lastName` suffix selects: `001` PENDING, `002` REJECTED, else APPROVED. */
export const ownerStatusForLastName = (lastName: string): VerificationStatus.KycStatus => {
  switch (suffixOf(lastName)) {
    case "001":
      return "PENDING"
    case "002":
      return "REJECTED"
    default:
      return "APPROVED"
  }
}

const statusOf = (customer: PacketCheck.Packet["customer"]): VerificationStatus.KycStatus =>
  customer.customerType === "INDIVIDUAL" ? customer.kycStatus : customer.kybStatus

// What a sandbox decision of the packet gives: the customer's status, the verification's, and (for a business)
// every owner resolved by its last name.
const decided = (
  packet: PacketCheck.Packet,
  status: VerificationStatus.KycStatus,
  verificationStatus: Verification.VerificationStatus
): KycProvider.SubmissionDecision => ({
  status,
  verificationStatus,
  errors: [],
  owners: packet.owners.map(({ owner }) => ({
    id: owner.id,
    kycStatus: ownerStatusForLastName(owner.personalInfo.lastName)
  }))
})

const toResolve = (
  packet: PacketCheck.Packet,
  errors: ReadonlyArray<Verification.VerificationError>
): KycProvider.SubmissionDecision => ({
  status: statusOf(packet.customer),
  verificationStatus: "RESOLVE_ERRORS",
  errors,
  owners: []
})

// A complete individual packet on a sandbox platform, by the `fullName` suffix.
const decideIndividual = (packet: PacketCheck.Packet, fullName: string | undefined) => {
  switch (kycStatusForName(fullName)) {
    case "PENDING":
      return decided(packet, "PENDING", "PENDING_MANUAL_REVIEW")
    case "REJECTED":
      return decided(packet, "REJECTED", "REJECTED")
    case "UNVERIFIED": {
      const document = PacketCheck.identityDocument(packet.documents)
      const poorQuality = new Verification.VerificationError({
        resourceId: document?.id ?? packet.customer.id,
        type: "POOR_QUALITY_DOCUMENT",
        reason: "The identity document is of too poor quality to read; upload a sharper image of it"
      })
      return toResolve(packet, [poorQuality])
    }
    default:
      return decided(packet, "APPROVED", "APPROVED")
  }
}

// A complete business packet on a sandbox platform, by the `registrationNumber` suffix: 001 and 003 wait for review.
const decideBusiness = (packet: PacketCheck.Packet, registrationNumber: string | undefined) => {
  switch (suffixOf(registrationNumber)) {
    case "001":
    case "003":
      return decided(packet, "PENDING", "PENDING_MANUAL_REVIEW")
    case "002":
      return decided(packet, "REJECTED", "REJECTED")
    default:
      return decided(packet, "APPROVED", "APPROVED")
  }
}

/**
 * What a `POST /verifications` of a not-final customer decides in the sandbox (the spec's tables):
 * - A business still `UNVERIFIED` on a regulated or skip-paperwork platform with a final `registrationNumber`
 *   suffix is decided without validating the packet: `002` REJECTED, any but `001`/`003` APPROVED.
 * - Otherwise an incomplete packet answers `RESOLVE_ERRORS` with its errors, the status unchanged.
 * - A complete packet on a production platform goes to the provider: status PENDING, `IN_PROGRESS`.
 * - A complete packet of a `PENDING` customer stays PENDING with `PENDING_MANUAL_REVIEW` (the first submission
 *   decided; renaming never re-derives).
 * - A complete individual packet, by the `fullName` suffix: `001` PENDING + `PENDING_MANUAL_REVIEW`; `002` REJECTED;
 *   `003` unchanged + `RESOLVE_ERRORS` with `POOR_QUALITY_DOCUMENT` on the identity document; other APPROVED.
 * - A complete business packet, by the `registrationNumber` suffix: `001`/`003` PENDING + `PENDING_MANUAL_REVIEW`;
 *   `002` REJECTED; other APPROVED.
 * Whenever the sandbox decides a business (anything but `RESOLVE_ERRORS`), its owners resolve by the suffix of
 * `personalInfo.lastName` (see `ownerStatusForLastName`).
 */
export const decideSubmission = (submission: KycProvider.Submission): KycProvider.SubmissionDecision => {
  const { errors, packet, platform } = submission
  const customer = packet.customer
  const status = statusOf(customer)
  if (
    customer.customerType === "BUSINESS" &&
    status === "UNVERIFIED" &&
    platform.environment === "SANDBOX" &&
    Platform.resolvesVerificationAtCreation(platform)
  ) {
    const suffix = suffixOf(customer.businessInfo.registrationNumber)
    if (suffix === "002") return decided(packet, "REJECTED", "REJECTED")
    if (suffix !== "001" && suffix !== "003") return decided(packet, "APPROVED", "APPROVED")
  }
  if (errors.length > 0) return toResolve(packet, errors)
  if (platform.environment === "PRODUCTION") {
    return { status: "PENDING", verificationStatus: "IN_PROGRESS", errors: [], owners: [] }
  }
  if (status === "PENDING") return decided(packet, "PENDING", "PENDING_MANUAL_REVIEW")
  return customer.customerType === "INDIVIDUAL"
    ? decideIndividual(packet, customer.fullName)
    : decideBusiness(packet, customer.businessInfo.registrationNumber)
}

/**
 * The sandbox KYC/KYB provider: individuals start with `initialKycStatus`; businesses are always created
 * `UNVERIFIED` (KYB decides at the first verification submission); submissions are decided by `decideSubmission`.
 */
export const layer: Layer.Layer<KycProvider.KycProvider> = Layer.succeed(KycProvider.KycProvider, {
  initialVerification: ({ platform, request }) =>
    Effect.succeed(
      request.customerType === "INDIVIDUAL"
        ? { customerType: "INDIVIDUAL", kycStatus: initialKycStatus(platform, request) }
        : { customerType: "BUSINESS", kybStatus: "UNVERIFIED" }
    ),
  decideSubmission: (submission) => Effect.sync(() => decideSubmission(submission))
})
