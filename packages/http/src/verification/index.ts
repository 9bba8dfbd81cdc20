export * as KycLinksHandlers from "./KycLinksHandlers.js"
