export * as SandboxCardsHandlers from "./SandboxCardsHandlers.js"
