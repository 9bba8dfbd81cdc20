export * as Fixtures from "./Fixtures.js"
export * as StorageConformance from "./StorageConformance.js"
