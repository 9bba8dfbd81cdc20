export * as LookupsHandlers from "./LookupsHandlers.js"
