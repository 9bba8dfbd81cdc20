export * as ExchangeRatesHandlers from "./ExchangeRatesHandlers.js"
export * as QuotesHandlers from "./QuotesHandlers.js"
export * as SandboxPaymentsHandlers from "./SandboxPaymentsHandlers.js"
export * as TransactionsHandlers from "./TransactionsHandlers.js"
