import { Layer } from "effect"
import type {
  CardIssuer,
  DocumentReviewer,
  FundingInstructions,
  FxRates,
  KycProvider,
  LivenessCheck,
  NameVerificationProvider,
  OtpDelivery,
  OwnershipVerifier,
  Rails,
  UmaDirectory,
  WithdrawalFeeProvider,
  StablecoinProvider
} from "@payrail/core"
import * as SandboxCardIssuer from "./SandboxCardIssuer.js"
import * as SandboxDocumentReview from "./SandboxDocumentReview.js"
import * as SandboxFundingInstructions from "./SandboxFundingInstructions.js"
import * as SandboxFxRates from "./SandboxFxRates.js"
import * as SandboxKyc from "./SandboxKyc.js"
import * as SandboxLivenessCheck from "./SandboxLivenessCheck.js"
import * as SandboxNameVerification from "./SandboxNameVerification.js"
import * as SandboxOtpDelivery from "./SandboxOtpDelivery.js"
import * as SandboxOwnership from "./SandboxOwnership.js"
import * as SandboxRails from "./SandboxRails.js"
import * as SandboxUmaDirectory from "./SandboxUmaDirectory.js"
import * as SandboxWithdrawalFees from "./SandboxWithdrawalFees.js"
import * as SandboxStablecoinProvider from "./SandboxStablecoinProvider.js"

/** Every provider port the sandbox simulates. */
export type Providers =
  | KycProvider.KycProvider
  | DocumentReviewer.DocumentReviewer
  | NameVerificationProvider.NameVerificationProvider
  | OwnershipVerifier.OwnershipVerifier
  | FxRates.FxRates
  | Rails.Rails
  | FundingInstructions.FundingInstructions
  | UmaDirectory.UmaDirectory
  | OtpDelivery.OtpDelivery
  | SandboxOtpDelivery.SandboxOtpOutbox
  | CardIssuer.CardIssuer
  | WithdrawalFeeProvider.WithdrawalFeeProvider
  | StablecoinProvider.StablecoinProvider
  | LivenessCheck.LivenessCheck

/**
 * All sandbox providers in one layer: KYC/KYB and document review, beneficiary name verification, wallet ownership, exchange rates, the
 * rails, real-time funding instructions, the UMA directory, the card issuer, the liveness check of factor resets (sandbox platforms only), and wallet one-time codes (captured, never sent: read
 * them through `SandboxOtpOutbox`).
 */
export const layer: Layer.Layer<Providers> = Layer.mergeAll(
  SandboxKyc.layer,
  SandboxDocumentReview.layer,
  SandboxNameVerification.layer,
  SandboxOwnership.layer,
  SandboxFxRates.layer,
  SandboxRails.layer,
  SandboxFundingInstructions.layer,
  SandboxUmaDirectory.layer,
  SandboxOtpDelivery.layer,
  SandboxCardIssuer.layer,
  SandboxWithdrawalFees.layer,
  SandboxStablecoinProvider.layer,
  SandboxLivenessCheck.layer
)
