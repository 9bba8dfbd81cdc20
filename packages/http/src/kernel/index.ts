export * as DocsPage from "./DocsPage.js"
export * as ErrorMapping from "./ErrorMapping.js"
export * as SystemHandlers from "./SystemHandlers.js"
