export * as SandboxKyc from "./SandboxKyc.js"
export * as SandboxNameVerification from "./SandboxNameVerification.js"
export * as SandboxOwnership from "./SandboxOwnership.js"
export * as Sandbox from "./Sandbox.js"
