import { type DateTime, Schema } from "effect"
import { Customer } from "../customers/index.js"
import { FieldFormat } from "@payrail/account-formats"
import { ResourceId, SchemaClass } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { AgentPolicy } from "./AgentPolicy.js"

/** `Agent:<uuid>`: an agent acting for one customer under a policy. */
export const AgentId = ResourceId.make("Agent")
export type AgentId = typeof AgentId.Type

/**
 * The reference's `AgentUsage`: what the agent spent today and this month (in the policy's currency, smallest
 * unit) and how many actions it executed today. Days and months are the platform's (UTC, on its clock, which a
 * sandbox can advance); `dailyResetDate` is the date the daily counters next start from zero and
 * `monthlyResetMonth` (`YYYY-MM`) the month the monthly one does.
 */
export class AgentUsage extends SchemaClass.Class<AgentUsage>("AgentUsage")({
  dailyTransactionCount: Schema.Int,
  dailySpend: Schema.Int,
  dailyResetDate: Schema.String,
  monthlySpend: Schema.Int,
  monthlyResetMonth: Schema.String
}) {}

/** The reference's `Agent`: its profile, policy and current usage. */
export class Agent extends SchemaClass.Class<Agent>("Agent")({
  id: AgentId,
  name: Schema.String,
  customerId: Customer.CustomerId,
  /** A paused agent executes nothing new; its configuration and pending actions stay. */
  isPaused: Schema.Boolean,
  /** Whether a device code was redeemed: the agent holds an access token. */
  isConnected: Schema.Boolean,
  policy: AgentPolicy,
  usage: AgentUsage,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** A name people give an agent: 1-255 characters of text. */
export const AgentName = FieldFormat.Text(255)

/** Body of `POST /agents` (the reference's `AgentCreateRequest`). */
export const CreateAgentRequest = Schema.Struct({
  name: AgentName,
  customerId: Customer.CustomerId,
  policy: AgentPolicy
}).annotations({ identifier: "AgentCreateRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })
export type CreateAgentRequest = typeof CreateAgentRequest.Type

/** Body of `PATCH /agents/{agentId}` (the reference's `AgentUpdateRequest`): at least one field. */
export const UpdateAgentRequest = Schema.Struct({
  name: Schema.optionalWith(AgentName, { exact: true }),
  isPaused: Schema.optionalWith(Schema.Boolean, { exact: true })
}).annotations({ identifier: "AgentUpdateRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })
export type UpdateAgentRequest = typeof UpdateAgentRequest.Type

/** Filters of `GET /agents`. */
export interface AgentFilter {
  readonly customerId?: Customer.CustomerId
  readonly isPaused?: boolean
  readonly isConnected?: boolean
  readonly createdAfter?: DateTime.Utc
  readonly createdBefore?: DateTime.Utc
  readonly updatedAfter?: DateTime.Utc
  readonly updatedBefore?: DateTime.Utc
}

/**
 * A stored agent: everything of `Agent` but its usage (kept apart, by `AgentUsageRepo`, so that spending never
 * contends with profile changes), plus its platform, the hash of its access token and its deletion.
 */
export interface AgentRecord {
  readonly id: AgentId
  readonly platformId: Platform.PlatformId
  readonly name: string
  readonly customerId: Customer.CustomerId
  readonly isPaused: boolean
  readonly isConnected: boolean
  readonly policy: AgentPolicy
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
  /** SHA-256 (lowercase hex) of the access token issued when a device code was redeemed; none before. */
  readonly tokenHash: string | undefined
  /** Increases by one with every update; updates apply only on the version they read. */
  readonly version: number
}
