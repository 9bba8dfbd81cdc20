export * as KycLinksApi from "./KycLinksApi.js"
