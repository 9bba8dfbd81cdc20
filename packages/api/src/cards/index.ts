export * as CardErrorBodies from "./CardErrorBodies.js"
export * as CardsApi from "./CardsApi.js"
