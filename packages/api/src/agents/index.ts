export * as AgentAuthentication from "./AgentAuthentication.js"
export * as AgentsApi from "./AgentsApi.js"
export * as AgentOperationsApi from "./AgentOperationsApi.js"
export * as AgentApprovalsApi from "./AgentApprovalsApi.js"
