export * as AgentAuthentication from "./AgentAuthentication.js"
export * as AgentApprovalsApi from "./AgentApprovalsApi.js"
