export * as VerificationsHandlers from "./VerificationsHandlers.js"
