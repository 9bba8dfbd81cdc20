export * as AgentAuthentication from "./AgentAuthentication.js"
export * as AgentOperationsApi from "./AgentOperationsApi.js"
