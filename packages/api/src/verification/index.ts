export * as DocumentsApi from "./DocumentsApi.js"
export * as BeneficialOwnersApi from "./BeneficialOwnersApi.js"
export * as VerificationsApi from "./VerificationsApi.js"
