export * as ExternalAccountsHandlers from "./ExternalAccountsHandlers.js"
export * as InternalAccountsHandlers from "./InternalAccountsHandlers.js"
