export * as Signer from "./Signer.js"
