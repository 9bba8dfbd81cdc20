export * as BeneficialOwnersHandlers from "./BeneficialOwnersHandlers.js"
