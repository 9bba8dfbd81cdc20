export * as AuthenticationLive from "./AuthenticationLive.js"
