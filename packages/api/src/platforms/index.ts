export * as Authentication from "./Authentication.js"
