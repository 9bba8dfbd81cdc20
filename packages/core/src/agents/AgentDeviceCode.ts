import { type DateTime, Duration, Schema } from "effect"
import type { Platform } from "../platforms/index.js"
import { AgentId } from "./Agent.js"
import { AgentPolicy } from "./AgentPolicy.js"
import { SchemaClass } from "../kernel/index.js"

/**
 * How long a device code can be redeemed after it is issued: one hour of the platform's clock. The platform shows
 * it to the person installing the agent; `POST /agents/{agentId}/device-codes` issues a new one.
 */
export const lifetime: Duration.Duration = Duration.hours(1)

/**
 * The code's symbols: Crockford's base32 (no `I`, `L`, `O` or `U`), so that people can read it aloud and type it;
 * a typed code is read case-insensitively with `O` as `0` and `I`/`L` as `1`. A code is `PAYRAIL-AGENT-` then three
 * groups of four symbols (60 random bits), e.g. `PAYRAIL-AGENT-X7K9-M2P4-H8QZ`.
 */
export const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
export const prefix = "PAYRAIL-AGENT-"

/** The reference's `AgentDeviceCode`: the code in clear, shown once, and whether it was redeemed. */
export class AgentDeviceCode extends SchemaClass.Class<AgentDeviceCode>("AgentDeviceCode")({
  code: Schema.String,
  agentId: AgentId,
  expiresAt: Schema.DateTimeUtc,
  redeemed: Schema.Boolean
}) {}

/** The answer of `GET /agents/device-codes/{code}/status` (the reference's `AgentDeviceCodeStatusResponse`). */
export class AgentDeviceCodeStatus extends SchemaClass.Class<AgentDeviceCodeStatus>("AgentDeviceCodeStatusResponse")({
  code: Schema.String,
  redeemed: Schema.Boolean
}) {}

/**
 * The answer of `POST /agents/device-codes/{code}/redeem` (the reference's `AgentDeviceCodeRedeemResponse`): the
 * access token (`gat_` and 40 hex digits), shown this once and stored only as a hash, and the policy it acts under.
 */
export class AgentDeviceCodeRedeemResponse extends SchemaClass.Class<AgentDeviceCodeRedeemResponse>(
  "AgentDeviceCodeRedeemResponse"
)({
  agentId: AgentId,
  agentName: Schema.String,
  accessToken: Schema.String,
  policy: AgentPolicy
}) {}

/** A stored device code: only the SHA-256 of the (normalised) code is kept. */
export interface StoredDeviceCode {
  /** SHA-256 (lowercase hex) of the code in upper case. */
  readonly codeHash: string
  readonly platformId: Platform.PlatformId
  readonly agentId: AgentId
  readonly createdAt: DateTime.Utc
  readonly expiresAt: DateTime.Utc
  /** When it was redeemed; a redeemed code never works again. */
  readonly redeemedAt: DateTime.Utc | undefined
  /** When a newer code replaced it (or its agent was deleted) before it was redeemed. */
  readonly invalidatedAt: DateTime.Utc | undefined
}
