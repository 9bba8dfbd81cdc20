export * as AgentAuthentication from "./AgentAuthentication.js"
