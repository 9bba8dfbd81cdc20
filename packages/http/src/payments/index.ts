export * as QuotesHandlers from "./QuotesHandlers.js"
export * as TransactionsHandlers from "./TransactionsHandlers.js"
