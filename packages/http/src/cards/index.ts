export * as CardsHandlers from "./CardsHandlers.js"
