export * as WebhooksHandlers from "./WebhooksHandlers.js"
