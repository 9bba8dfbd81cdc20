export * as BeneficialOwnersHandlers from "./BeneficialOwnersHandlers.js"
export * as VerificationsHandlers from "./VerificationsHandlers.js"
