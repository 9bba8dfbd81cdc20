export * as AgentApprovalsHandlers from "./AgentApprovalsHandlers.js"
