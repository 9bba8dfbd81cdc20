export * as AuthenticationLive from "./AuthenticationLive.js"
export * as EndpointPermissions from "./EndpointPermissions.js"
