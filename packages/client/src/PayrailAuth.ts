import { Encoding } from "effect"

/**
 * How the client proves who it is:
 * - `basic`: a platform's API token (the sandbox credentials `npm start` prints are one), its client id and client
 *   secret sent as HTTP Basic credentials, for the platform endpoints;
 * - `agent`: an agent's access token (`gat_…`, answered once by `POST /agents/device-codes/{code}/redeem`), sent as a
 *   bearer credential, for the agent endpoints (`/agents/me/...`);
 * - `none`: no credentials, for the few operations that take none (redeeming a device code, health and readiness).
 */
export type PayrailAuth =
  | { readonly type: "basic"; readonly clientId: string; readonly clientSecret: string }
  | { readonly type: "agent"; readonly accessToken: string }
  | { readonly type: "none" }

/** HTTP Basic with an API token's client id and client secret. */
export const basic = (clientId: string, clientSecret: string): PayrailAuth => ({
  type: "basic",
  clientId,
  clientSecret
})

/** An agent's bearer access token (`gat_…`). */
export const agent = (accessToken: string): PayrailAuth => ({ type: "agent", accessToken })

/** No credentials. */
export const none: PayrailAuth = { type: "none" }

/** The `Authorization` header value for `auth`, or `undefined` for none. Basic credentials are UTF-8, then base64. */
export const authorizationOf = (auth: PayrailAuth): string | undefined => {
  switch (auth.type) {
    case "basic":
      return `Basic ${Encoding.encodeBase64(`${auth.clientId}:${auth.clientSecret}`)}`
    case "agent":
      return `Bearer ${auth.accessToken}`
    case "none":
      return undefined
  }
}
