export * as AgentAuthenticationLive from "./AgentAuthenticationLive.js"
export * as AgentsHandlers from "./AgentsHandlers.js"
export * as AgentOperationsHandlers from "./AgentOperationsHandlers.js"
export * as AgentApprovalsHandlers from "./AgentApprovalsHandlers.js"
