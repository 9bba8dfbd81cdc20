export * as CustomersApi from "./CustomersApi.js"
