export * as VerificationsApi from "./VerificationsApi.js"
