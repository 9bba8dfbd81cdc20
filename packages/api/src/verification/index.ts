export * as BeneficialOwnersApi from "./BeneficialOwnersApi.js"
