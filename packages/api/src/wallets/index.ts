export * as WalletAuthApi from "./WalletAuthApi.js"
export * as WalletErrorBodies from "./WalletErrorBodies.js"
export * as WalletShapes from "./WalletShapes.js"
export * as DelegatedKeysApi from "./DelegatedKeysApi.js"
