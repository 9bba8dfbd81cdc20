export * as ExchangeRatesHandlers from "./ExchangeRatesHandlers.js"
