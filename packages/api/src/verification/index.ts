export * as ContactVerificationApi from "./ContactVerificationApi.js"
export * as VerificationsApi from "./VerificationsApi.js"
export * as BeneficialOwnersApi from "./BeneficialOwnersApi.js"
export * as KycLinksApi from "./KycLinksApi.js"
