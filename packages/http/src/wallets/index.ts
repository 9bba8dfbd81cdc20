export * as WalletAuthHandlers from "./WalletAuthHandlers.js"
export * as DelegatedKeysHandlers from "./DelegatedKeysHandlers.js"
