export * as WebhooksApi from "./WebhooksApi.js"
