import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { ExternalAccount, Quote, ScaChallenge, ScaRequest } from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { FieldErrorReport } from "../kernel/index.js"
import { QuotesApi } from "../payments/index.js"
import { Authentication } from "../platforms/index.js"
import {
  AccountLockedBody,
  ScaConflictBody,
  ScaNotFoundBody,
  ScaRefusedBody,
  ScaSessionRequiredBody
} from "./ScaErrorBodies.js"

const { reportFieldErrors } = FieldErrorReport

const regions =
  "Only for customers whose `region` is in the European Economic Area or the United Kingdom; others (and platform-owned accounts) get 409 `CONFLICT` (`details.rule: sca_not_used`)."

/** The challenge a trust or untrust start answers. */
export const BeneficiaryTrustStart = Schema.Struct({ scaChallenge: ScaChallenge.ScaChallenge }).annotations({
  identifier: "BeneficiaryTrustStart"
})

/** Whether the beneficiary is trusted after a confirmation. */
export const BeneficiaryTrustConfirm = Schema.Struct({ trusted: Schema.Boolean }).annotations({
  identifier: "BeneficiaryTrustConfirm"
})

const AccountPath = reportFieldErrors(Schema.Struct({ externalAccountId: ExternalAccount.ExternalAccountId }))

const start = <const Name extends string>(name: Name, path: `/${string}`, what: string) =>
  HttpApiEndpoint.post(name, path)
    .setPath(AccountPath)
    .addSuccess(BeneficiaryTrustStart)
    .annotate(OpenApi.Summary, `Start ${what} a beneficiary`)
    .annotate(
      OpenApi.Description,
      `Sends an SMS code (valid 5 minutes; \`123456\` on sandbox platforms) and answers the \`scaChallenge\` to satisfy on the confirm call. ${what === "trusting" ? "Payments to a trusted beneficiary skip the per-payment challenge. Trusting a trusted account is 409." : "Untrusting an untrusted account is 409."} ${regions}`
    )

const confirm = <const Name extends string>(name: Name, path: `/${string}`, what: string) =>
  HttpApiEndpoint.post(name, path)
    .setPath(AccountPath)
    .setPayload(reportFieldErrors(ScaRequest.TrustConfirmRequest))
    .addSuccess(BeneficiaryTrustConfirm)
    .addError(ScaRefusedBody)
    .addError(AccountLockedBody)
    .annotate(OpenApi.Summary, `Confirm ${what} a beneficiary`)
    .annotate(
      OpenApi.Description,
      `Checks the code of the started challenge (\`challengeId\` optional), or the customer's passkey assertion (\`passkeyAssertion\` and \`origin\`) when \`PASSKEY\` is among its \`availableFactors\`; a wrong code is 400 and climbs the lockout ladder (423 while locked); nothing pending is 409. ${regions}`
    )

/** Trusting and untrusting a customer's external accounts (beneficiaries), each with an SCA challenge. */
export class BeneficiaryTrustApi extends HttpApiGroup.make("beneficiaryTrust")
  .add(start("startTrust", "/customers/external-accounts/:externalAccountId/trust", "trusting"))
  .add(confirm("confirmTrust", "/customers/external-accounts/:externalAccountId/trust/confirm", "trusting"))
  .add(start("startUntrust", "/customers/external-accounts/:externalAccountId/untrust", "untrusting"))
  .add(confirm("confirmUntrust", "/customers/external-accounts/:externalAccountId/untrust/confirm", "untrusting"))
  .addError(ScaNotFoundBody)
  .addError(CustomersApi.CustomerNotFoundBody)
  .addError(CustomersApi.CustomerDeletedBody)
  .addError(ScaConflictBody)
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Trusted beneficiaries")
  .annotate(OpenApi.Description, "Trusting and untrusting beneficiaries with strong customer authentication.") {}

const QuotePath = reportFieldErrors(Schema.Struct({ quoteId: Quote.QuoteId }))

/** Authorizing a quote waiting in `PENDING_AUTHORIZATION`, and re-sending its code. */
export class QuoteAuthorizationApi extends HttpApiGroup.make("quoteAuthorization")
  .add(
    HttpApiEndpoint.post("authorize", "/quotes/:quoteId/authorize")
      .setPath(QuotePath)
      .setPayload(reportFieldErrors(ScaRequest.ScaAuthorization))
      .addSuccess(Quote.Quote)
      .addError(ScaRefusedBody)
      .addError(AccountLockedBody)
      .addError(ScaSessionRequiredBody)
      .addError(Authentication.RateLimitedBody)
      .addError(QuotesApi.QuoteExpiredBody)
      .addError(QuotesApi.QuoteTransitionRefusedBody)
      .addError(QuotesApi.InsufficientFundsBody)
      .addError(QuotesApi.BalanceLimitBody)
      .annotate(OpenApi.Summary, "Authorize a quote's SCA challenge")
      .annotate(
        OpenApi.Description,
        `Needs the customer's SCA login session (\`POST /sca/login/complete\`): without one, or once it expired, the answer is 409 \`SCA_SESSION_REQUIRED\`. Checks the code of the quote's \`scaChallenge\` (\`123456\` on sandbox platforms), or the customer's passkey assertion (\`passkeyAssertion\` with its \`origin\`, when \`PASSKEY\` is among its \`availableFactors\`), and executes the quote as \`POST /quotes/{quoteId}/execute\` would: the answer is the quote, \`PROCESSING\` (or \`COMPLETED\`). A wrong code is 400 and counts: beyond 3 tries a minute the answer is 429 \`RATE_LIMITED\` with \`Retry-After\`, 5 wrong codes void the challenge, and the customer's lockout ladder climbs (423 \`ACCOUNT_LOCKED\`). A quote with no pending challenge is 409. When the challenge's \`expiresAt\` passes, the quote and its transaction fail with \`SCA_NOT_COMPLETED\`. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.post("resend", "/quotes/:quoteId/authorize/resend")
      .setPath(QuotePath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(Authentication.RateLimitedBody)
      .annotate(OpenApi.Summary, "Resend a quote's SCA challenge code")
      .annotate(
        OpenApi.Description,
        `Sends a new code for the same challenge (its \`expiresAt\` is not extended); at most 3 per 10 minutes (429 \`RATE_LIMITED\` with \`Retry-After\` beyond). No pending SMS challenge is 409. ${regions}`
      )
  )
  .addError(QuotesApi.QuoteNotFoundBody)
  .addError(CustomersApi.CustomerNotFoundBody)
  .addError(CustomersApi.CustomerDeletedBody)
  .addError(ScaConflictBody)
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Quote authorization")
  .annotate(OpenApi.Description, "Strong customer authentication of payments: authorize a quote, resend its code.") {}
