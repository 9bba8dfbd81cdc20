export * as StablecoinsHandlers from "./StablecoinsHandlers.js"
