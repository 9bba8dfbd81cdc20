export * as ContactVerificationHandlers from "./ContactVerificationHandlers.js"
export * as VerificationsHandlers from "./VerificationsHandlers.js"
export * as BeneficialOwnersHandlers from "./BeneficialOwnersHandlers.js"
export * as KycLinksHandlers from "./KycLinksHandlers.js"
