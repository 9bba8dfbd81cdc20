export * as SandboxKyc from "./SandboxKyc.js"
