export * as BulkImportsHandlers from "./BulkImportsHandlers.js"
export * as CustomersHandlers from "./CustomersHandlers.js"
