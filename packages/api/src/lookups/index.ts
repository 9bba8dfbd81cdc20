export * as LookupsApi from "./LookupsApi.js"
