export * as BulkImportsApi from "./BulkImportsApi.js"
export * as CustomersApi from "./CustomersApi.js"
