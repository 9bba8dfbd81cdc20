export * as ContactVerificationHandlers from "./ContactVerificationHandlers.js"
