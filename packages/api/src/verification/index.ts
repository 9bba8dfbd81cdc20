export * as DocumentsApi from "./DocumentsApi.js"
