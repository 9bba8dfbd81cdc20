export * as DocumentsHandlers from "./DocumentsHandlers.js"
export * as BeneficialOwnersHandlers from "./BeneficialOwnersHandlers.js"
export * as VerificationsHandlers from "./VerificationsHandlers.js"
