import { Context, type Effect } from "effect"
import type { CreateCustomerRequest } from "./CustomerRequest.js"
import type { KybStatus, KycStatus } from "./VerificationStatus.js"
import type { Platform } from "../platforms/index.js"

/** The verification status a new customer starts with. */
export type InitialVerification =
  | { readonly customerType: "INDIVIDUAL"; readonly kycStatus: KycStatus }
  | { readonly customerType: "BUSINESS"; readonly kybStatus: KybStatus }

/**
 * The KYC/KYB provider. `@payrail/sandbox` implements it with the spec's magic suffixes; a real provider plugs
 * in here. Calls must be safe to repeat: a failed customer creation may ask again.
 */
export class KycProvider extends Context.Tag("@payrail/core/KycProvider")<
  KycProvider,
  {
    readonly initialVerification: (input: {
      readonly platform: Platform.Platform
      readonly request: CreateCustomerRequest
    }) => Effect.Effect<InitialVerification>
  }
>() {}
