export * as SandboxCardsApi from "./SandboxCardsApi.js"
