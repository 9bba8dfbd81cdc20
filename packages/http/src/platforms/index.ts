export * as AuthenticationLive from "./AuthenticationLive.js"
export * as EndpointPermissions from "./EndpointPermissions.js"
export * as SourceAddress from "./SourceAddress.js"
export * as RateLimitedResponse from "./RateLimitedResponse.js"
