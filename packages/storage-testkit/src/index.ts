export * as Fixtures from "./Fixtures.js"
export * as StorageConformance from "./StorageConformance.js"
export { AccountInfoExamples } from "@payrail/account-formats"
