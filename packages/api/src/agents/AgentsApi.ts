import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Agent, AgentDeviceCode, AgentErrors, AgentPolicy, Customer, SchemaClass } from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { PricingErrorBodies } from "../payments/index.js"
import { Authentication } from "../platforms/index.js"
import { AgentAuthentication } from "./AgentAuthentication.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/** 404 `NOT_FOUND`: no live agent with this id on the platform (deleted agents included). */
export const AgentNotFoundBody = wire(AgentErrors.AgentNotFound, 404, "No such agent on this platform")
/** 404 `NOT_FOUND`: no such device code was issued (by this platform, for the status). */
export const DeviceCodeNotFoundBody = wire(AgentErrors.DeviceCodeNotFound, 404, "No such device code")
/** 400 `DEVICE_CODE_UNUSABLE`: the code was redeemed, expired or replaced (`details.rule`). */
export const DeviceCodeUnusableBody = wire(
  AgentErrors.DeviceCodeUnusable,
  400,
  "The device code was already redeemed, expired, or was replaced by a newer one (`details.rule`)"
)
/** 409 `CONFLICT`: the agent is already connected (holds an access token). */
export const AgentAlreadyConnectedBody = wire(
  AgentErrors.AgentAlreadyConnected,
  409,
  "The agent is already connected; a new device code cannot be issued"
)

const AgentPath = reportFieldErrors(Schema.Struct({ agentId: Agent.AgentId }))
const CodePath = Schema.Struct({ code: Schema.String })
const Bound = ListQuery.TimestampBound
const exact = { exact: true } as const

/** Query of `GET /agents`: filters (timestamp bounds inclusive) and paging. */
export const AgentListParams = reportFieldErrors(
  Schema.Struct({
    customerId: Schema.optionalWith(Customer.CustomerId, exact),
    isPaused: Schema.optionalWith(Schema.BooleanFromString, exact),
    isConnected: Schema.optionalWith(Schema.BooleanFromString, exact),
    createdAfter: Schema.optionalWith(Bound, exact),
    createdBefore: Schema.optionalWith(Bound, exact),
    updatedAfter: Schema.optionalWith(Bound, exact),
    updatedBefore: Schema.optionalWith(Bound, exact),
    ...ListQuery.pageParams
  })
)

/** The answer of `POST /agents` (the reference's `AgentCreateResponse`): the agent and its first device code. */
export class AgentCreateResponse extends SchemaClass.Class<AgentCreateResponse>("AgentCreateResponse")(
  { agent: Agent.Agent, deviceCode: AgentDeviceCode.AgentDeviceCode },
  HttpApiSchema.annotations({ status: 201 })
) {}

/** A new device code, answered with 201 (a copy of the class's schema, so no other response becomes a 201). */
const CreatedDeviceCode = AgentDeviceCode.AgentDeviceCode.annotations(
  HttpApiSchema.annotations<AgentDeviceCode.AgentDeviceCode>({ status: 201 })
)

const deviceCodeFlow =
  "Installation: `POST /agents` answers the agent and a device code (`PAYRAIL-AGENT-XXXX-XXXX-XXXX`, valid for one " +
  "hour of the platform's clock). The person installing the agent gives it the code; the agent redeems it with " +
  "`POST /agents/device-codes/{code}/redeem` (no credentials) and receives its access token once."

/**
 * Agents as the platform manages them (HTTP Basic): create, list, read, rename, pause, change the policy, delete,
 * issue device codes and poll their installation.
 */
export class AgentsApi extends HttpApiGroup.make("agents")
  .add(
    HttpApiEndpoint.post("create", "/agents")
      .setPayload(reportFieldErrors(Agent.CreateAgentRequest))
      .addSuccess(AgentCreateResponse)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .annotate(OpenApi.Summary, "Create an agent")
      .annotate(
        OpenApi.Description,
        `Creates an agent acting for one live customer under \`policy\`, unconnected and unpaused. ${deviceCodeFlow} ` +
          "Every account the policy's `accountRestrictions` names must be an internal account of the customer (400)."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/agents")
      .setUrlParams(AgentListParams)
      .addSuccess(ListQuery.ListResponse(Agent.Agent, "AgentListResponse"))
      .annotate(OpenApi.Summary, "List agents, newest first")
  )
  .add(
    HttpApiEndpoint.get("deviceCodeStatus", "/agents/device-codes/:code/status")
      .setPath(CodePath)
      .addSuccess(AgentDeviceCode.AgentDeviceCodeStatus)
      .addError(DeviceCodeNotFoundBody)
      .annotate(OpenApi.Summary, "Get the status of a device code")
      .annotate(OpenApi.Description, "Whether the agent redeemed the code: poll it to see the installation finish.")
  )
  .add(
    HttpApiEndpoint.get("get", "/agents/:agentId")
      .setPath(AgentPath)
      .addSuccess(Agent.Agent)
      .addError(AgentNotFoundBody)
      .annotate(OpenApi.Summary, "Get an agent, with its policy and usage")
  )
  .add(
    HttpApiEndpoint.patch("update", "/agents/:agentId")
      .setPath(AgentPath)
      .setPayload(reportFieldErrors(Agent.UpdateAgentRequest))
      .addSuccess(Agent.Agent)
      .addError(AgentNotFoundBody)
      .annotate(OpenApi.Summary, "Rename, pause or resume an agent")
      .annotate(
        OpenApi.Description,
        "At least one of `name` and `isPaused`. A paused agent executes nothing new; its policy, usage and pending " +
          "actions stay, and resuming it changes nothing else."
      )
  )
  .add(
    HttpApiEndpoint.patch("updatePolicy", "/agents/:agentId/policy")
      .setPath(AgentPath)
      .setPayload(reportFieldErrors(AgentPolicy.AgentPolicyUpdate))
      .addSuccess(Agent.Agent)
      .addError(AgentNotFoundBody)
      .addError(PricingErrorBodies.QuoteRateUnavailableBody)
      .annotate(OpenApi.Summary, "Update an agent's policy")
      .annotate(
        OpenApi.Description,
        "A partial policy, effective for the next evaluation. Given fields replace the stored ones (`permissions` the " +
          "whole list, `accountRestrictions` and `approvalThresholds` whole); `spendingLimits` merges field by field, " +
          "and `null` removes `dailyLimit` or `monthlyLimit`. A new `spendingLimits.currency` converts the amount " +
          "limits the update does not set (and the account rules' limits, unless `accountRestrictions` is given) and " +
          "the usage at the current mid-market rate, rounding down."
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/agents/:agentId")
      .setPath(AgentPath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(AgentNotFoundBody)
      .annotate(OpenApi.Summary, "Delete an agent")
      .annotate(
        OpenApi.Description,
        "Its access token stops working at once and its unredeemed device codes are invalidated; its actions stay " +
          "readable to the platform."
      )
  )
  .add(
    HttpApiEndpoint.post("issueDeviceCode", "/agents/:agentId/device-codes")
      .setPath(AgentPath)
      .addSuccess(CreatedDeviceCode)
      .addError(AgentNotFoundBody)
      .addError(AgentAlreadyConnectedBody)
      .annotate(OpenApi.Summary, "Issue a new device code")
      .annotate(
        OpenApi.Description,
        "Invalidates the agent's earlier unredeemed codes. 409 when the agent is already connected."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Agents")
  .annotate(OpenApi.Description, "AI agents acting for a customer under a policy the platform sets.") {}

/** Redeeming a device code: no credentials, the code itself is the proof. */
export class AgentDeviceCodesApi extends HttpApiGroup.make("agentDeviceCodes")
  .add(
    HttpApiEndpoint.post("redeem", "/agents/device-codes/:code/redeem")
      .setPath(CodePath)
      .addSuccess(AgentDeviceCode.AgentDeviceCodeRedeemResponse)
      .addError(DeviceCodeNotFoundBody)
      .addError(DeviceCodeUnusableBody)
      .addError(Authentication.RateLimitedBody)
      .annotate(OpenApi.Summary, "Redeem a device code for an access token")
      .annotate(
        OpenApi.Description,
        "No credentials and no body. Answers the agent's access token (`gat_` and 40 hex digits) this once: only its " +
          "hash is kept. Of concurrent redeems exactly one succeeds. The code is read case-insensitively, with `O` as " +
          "`0` and `I`/`L` as `1`. Failed redeems count against the caller's address (429 `RATE_LIMITED`)."
      )
  )
  .annotate(OpenApi.Title, "Agent installation")
  .annotate(OpenApi.Description, "How an agent turns its device code into an access token.") {}

/** The agent's own view (bearer `AgentAuth`). */
export class AgentMeApi extends HttpApiGroup.make("agentMe")
  .add(
    HttpApiEndpoint.get("get", "/agents/me")
      .addSuccess(Agent.Agent)
      .annotate(OpenApi.Summary, "Get the calling agent, with its policy and usage")
  )
  .middleware(AgentAuthentication)
  .annotate(OpenApi.Title, "Agent API")
  .annotate(OpenApi.Description, "Operations an agent calls with its access token, for its customer only.") {}
