import type { Platform } from "../platforms/index.js"
import type { OidcIssuer } from "./OidcTokens.js"

/**
 * Issuers a sandbox platform accepts without configuring any (their tokens' signatures are not checked there):
 * Google and Apple, the providers wallet apps sign in with.
 */
export const sandboxDefaults: ReadonlyArray<OidcIssuer> = [
  { issuer: "https://accounts.google.com" },
  { issuer: "https://appleid.apple.com" }
]

/** The issuers `OAUTH` credentials of the platform accept: its configured ones, or the sandbox defaults. */
export const of = (platform: Platform.Platform): ReadonlyArray<OidcIssuer> => {
  const configured = platform.config.embeddedWalletConfig?.oauthIssuers ?? []
  if (configured.length > 0) {
    return configured.map((issuer) => ({
      issuer: issuer.issuer,
      ...(issuer.jwksUrl === undefined ? {} : { jwksUrl: issuer.jwksUrl }),
      ...(issuer.jwks === undefined ? {} : { jwks: issuer.jwks })
    }))
  }
  return platform.environment === "SANDBOX" ? sandboxDefaults : []
}
