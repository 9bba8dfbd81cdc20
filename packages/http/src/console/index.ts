export * as ConsoleHtml from "./ConsoleHtml.js"
export * as ConsolePage from "./ConsolePage.js"
export * as ConsoleScript from "./ConsoleScript.js"
