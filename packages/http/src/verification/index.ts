export * as DocumentsHandlers from "./DocumentsHandlers.js"
