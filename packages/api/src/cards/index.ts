export * as CardErrorBodies from "./CardErrorBodies.js"
export * as CardsApi from "./CardsApi.js"
export * as SandboxCardsApi from "./SandboxCardsApi.js"
