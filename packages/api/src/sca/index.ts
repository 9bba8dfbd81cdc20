export * as ScaApi from "./ScaApi.js"
export * as ScaErrorBodies from "./ScaErrorBodies.js"
export * as ScaPaymentsApi from "./ScaPaymentsApi.js"
