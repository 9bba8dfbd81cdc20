export * as DocsPage from "./DocsPage.js"
export * as ErrorMapping from "./ErrorMapping.js"
export * as Idempotency from "./Idempotency.js"
export * as SystemHandlers from "./SystemHandlers.js"
