export * as ExternalAccountsApi from "./ExternalAccountsApi.js"
export * as InternalAccountsApi from "./InternalAccountsApi.js"
