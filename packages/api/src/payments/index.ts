export * as ExchangeRatesApi from "./ExchangeRatesApi.js"
export * as PricingErrorBodies from "./PricingErrorBodies.js"
export * as QuotesApi from "./QuotesApi.js"
export * as TransactionsApi from "./TransactionsApi.js"
