export * as Authentication from "./Authentication.js"
export * as ConfigApi from "./ConfigApi.js"
export * as TokensApi from "./TokensApi.js"
export * as SandboxClockApi from "./SandboxClockApi.js"
