import { Context, type Effect } from "effect"
import type { CreateCustomerRequest } from "./CustomerRequest.js"
import type { KybStatus, KycStatus } from "./VerificationStatus.js"
import type { Platform } from "../platforms/index.js"
import type { BeneficialOwner, PacketCheck, Verification } from "../verification/index.js"

/** The verification status a new customer starts with. */
export type InitialVerification =
  | { readonly customerType: "INDIVIDUAL"; readonly kycStatus: KycStatus }
  | { readonly customerType: "BUSINESS"; readonly kybStatus: KybStatus }

/** A verification submission as the provider sees it: the packet and what `PacketCheck.check` found missing. */
export interface Submission {
  readonly platform: Platform.Platform
  readonly packet: PacketCheck.Packet
  /** `PacketCheck.check(packet)`: empty when the packet is complete. */
  readonly errors: ReadonlyArray<Verification.VerificationError>
}

/** What the provider decides of a submission. */
export interface SubmissionDecision {
  /** The customer's KYC (individual) or KYB (business) status after the submission; its current one if unchanged. */
  readonly status: KycStatus
  readonly verificationStatus: Verification.VerificationStatus
  /** What the customer must fix; empty unless `verificationStatus` is `RESOLVE_ERRORS`. */
  readonly errors: ReadonlyArray<Verification.VerificationError>
  /** The statuses the business's owners resolve to (empty for individuals and while nothing is decided). */
  readonly owners: ReadonlyArray<{ readonly id: BeneficialOwner.BeneficialOwnerId; readonly kycStatus: KycStatus }>
}

/**
 * The KYC/KYB provider. `@payrail/sandbox` implements it with the spec's magic suffixes; a real provider plugs
 * in here. Calls must be safe to repeat: a failed customer creation or submission may ask again.
 */
export class KycProvider extends Context.Tag("@payrail/core/KycProvider")<
  KycProvider,
  {
    readonly initialVerification: (input: {
      readonly platform: Platform.Platform
      readonly request: CreateCustomerRequest
    }) => Effect.Effect<InitialVerification>
    /**
     * Decides a `POST /verifications` of a customer whose status is not final (`UNVERIFIED` or `PENDING`): an
     * incomplete packet normally answers `RESOLVE_ERRORS` with the status unchanged; a complete one is decided or
     * handed to review.
     */
    readonly decideSubmission: (submission: Submission) => Effect.Effect<SubmissionDecision>
  }
>() {}
