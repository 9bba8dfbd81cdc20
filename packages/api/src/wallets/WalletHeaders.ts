import { Option, Schema } from "effect"
import type { SignedRetry } from "@payrail/core"

/** The documented wallet signature header (HTTP header names are case-insensitive). */
export const signatureHeader = "service-wallet-signature"

/** Grid's name for the same header, accepted as an alias and not documented; the documented name wins when both come. */
export const signatureAliasHeader = "grid-wallet-signature"

/** The header carrying a signed retry's `requestId`. */
export const requestIdHeader = "request-id"

/**
 * The wallet headers an endpoint with a signed retry declares: both optional (a first leg carries neither). Their
 * values are not constrained here: an unparseable stamp or id is a 401 of the signed retry, not a 400.
 */
export const WalletRequestHeaders = Schema.Struct({
  [signatureHeader]: Schema.optional(
    Schema.String.annotations({
      description:
        "On a signed retry: the stamp over the challenge's `payloadToSign` by an active session's key " +
        "(base64url JSON `{publicKey, scheme, signature}`). `Grid-Wallet-Signature` is accepted as an alias."
    })
  ),
  [requestIdHeader]: Schema.optional(
    Schema.String.annotations({ description: "On a signed retry: the challenge's `requestId`" })
  )
})
export type WalletRequestHeaders = typeof WalletRequestHeaders.Type

/**
 * Core's `WalletHeaders` from the decoded headers and the raw request headers (for the `Grid-Wallet-Signature`
 * alias): each header `Option.some` when present, even empty (an empty stamp is malformed, not missing).
 */
export const toWalletHeaders = (
  declared: WalletRequestHeaders,
  raw: Readonly<Record<string, string | undefined>>
): SignedRetry.WalletHeaders => ({
  signature: Option.fromNullable(declared[signatureHeader] ?? raw[signatureAliasHeader]),
  requestId: Option.fromNullable(declared[requestIdHeader])
})
