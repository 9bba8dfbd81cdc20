export * as StablecoinErrorBodies from "./StablecoinErrorBodies.js"
export * as StablecoinsApi from "./StablecoinsApi.js"
