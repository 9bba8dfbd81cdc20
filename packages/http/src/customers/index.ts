export * as CustomersHandlers from "./CustomersHandlers.js"
