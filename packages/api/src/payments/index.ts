export * as ExchangeRatesApi from "./ExchangeRatesApi.js"
export * as PricingErrorBodies from "./PricingErrorBodies.js"
