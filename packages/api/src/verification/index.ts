export * as ContactVerificationApi from "./ContactVerificationApi.js"
