export * as Fixtures from "./Fixtures.js"
export * as StorageConformance from "./StorageConformance.js"
export * as AccountInfoExamples from "./AccountInfoExamples.js"
