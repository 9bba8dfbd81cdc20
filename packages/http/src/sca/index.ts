export * as ScaHandlers from "./ScaHandlers.js"
export * as ScaPaymentsHandlers from "./ScaPaymentsHandlers.js"
