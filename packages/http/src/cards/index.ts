export * as CardRevealPage from "./CardRevealPage.js"
export * as CardRevealPageHtml from "./CardRevealPageHtml.js"
export * as CardsHandlers from "./CardsHandlers.js"
export * as SandboxCardsHandlers from "./SandboxCardsHandlers.js"
