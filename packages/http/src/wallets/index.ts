export * as WalletAuthHandlers from "./WalletAuthHandlers.js"
