import { Context, DateTime, Effect, Layer, Option, Redacted } from "effect"
import { type CustomerErrors, Customers } from "../customers/index.js"
import {
  Ids,
  InvalidInput,
  type Page,
  type RateLimited,
  ResourceId,
  StoreFailure,
  UnitOfWork
} from "../kernel/index.js"
import type { InternalAccountRepo } from "../accounts/index.js"
import type { FxRateCache, PricingErrors } from "../payments/index.js"
import type { Platform, PlatformErrors } from "../platforms/index.js"
import {
  type Agent,
  type AgentFilter,
  AgentId,
  type AgentRecord,
  type CreateAgentRequest,
  type UpdateAgentRequest
} from "./Agent.js"
import * as AgentCalendar from "./AgentCalendar.js"
import type { AgentCaller } from "./AgentCaller.js"
import {
  AgentDeviceCode,
  AgentDeviceCodeRedeemResponse,
  AgentDeviceCodeStatus,
  lifetime,
  type StoredDeviceCode
} from "./AgentDeviceCode.js"
import * as AgentDeviceCodes from "./AgentDeviceCodes.js"
import * as AgentInstallation from "./AgentInstallation.js"
import { AgentAlreadyConnected, AgentNotFound, DeviceCodeNotFound, DeviceCodeUnusable } from "./AgentErrors.js"
import type { AgentPolicyUpdate } from "./AgentPolicy.js"
import * as AgentPolicyAccounts from "./AgentPolicyAccounts.js"
import * as AgentPolicyMerge from "./AgentPolicyMerge.js"
import { AgentRepo } from "./AgentRepo.js"
import { AgentUsageRepo } from "./AgentUsageRepo.js"
import * as AgentView from "./AgentView.js"
import * as PolicyCurrency from "./PolicyCurrency.js"

/**
 * Agents as the platform manages them, their installation by device code, and the check of their access tokens.
 * Every change commits in one unit of work.
 */
export class Agents extends Context.Tag("@payrail/core/Agents")<
  Agents,
  {
    /**
     * Creates an agent for a live customer of the platform, unconnected and unpaused, with its first device code
     * (shown once; only its hash is stored). 404 for an unknown customer, 410 for a deleted one, 400 for a policy
     * whose accounts are not the customer's internal accounts.
     */
    readonly create: (
      platform: Platform.Platform,
      request: CreateAgentRequest
    ) => Effect.Effect<
      { readonly agent: Agent; readonly deviceCode: AgentDeviceCode },
      | CustomerErrors.CustomerNotFound
      | CustomerErrors.CustomerDeleted
      | InvalidInput.InvalidInput
      | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      id: AgentId
    ) => Effect.Effect<Agent, AgentNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: AgentFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Agent>, StoreFailure.StoreFailure>
    /** Renames and/or pauses or resumes the agent. Pausing keeps its configuration and its pending actions. */
    readonly update: (
      platform: Platform.Platform,
      id: AgentId,
      request: UpdateAgentRequest
    ) => Effect.Effect<Agent, AgentNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure>
    /**
     * Applies a partial policy (see `AgentPolicyUpdate`), effective for the next evaluation. A changed limits
     * currency re-denominates the limits it does not set and the usage, at the current exchange rate
     * (`QUOTE_RATE_UNAVAILABLE` when there is none).
     */
    readonly updatePolicy: (
      platform: Platform.Platform,
      id: AgentId,
      request: AgentPolicyUpdate
    ) => Effect.Effect<
      Agent,
      AgentNotFound | InvalidInput.InvalidInput | PricingErrors.QuoteRateUnavailable | StoreFailure.StoreFailure
    >
    /** Deletes the agent: its token stops working at once; its actions stay readable to the platform. */
    readonly delete: (
      platform: Platform.Platform,
      id: AgentId
    ) => Effect.Effect<void, AgentNotFound | StoreFailure.StoreFailure>
    /** Issues a new device code, invalidating the agent's unredeemed ones. 409 when the agent is connected. */
    readonly issueDeviceCode: (
      platform: Platform.Platform,
      id: AgentId
    ) => Effect.Effect<AgentDeviceCode, AgentNotFound | AgentAlreadyConnected | StoreFailure.StoreFailure>
    /** Whether the code (of one of the platform's agents) was redeemed; 404 for a code it never issued. */
    readonly deviceCodeStatus: (
      platform: Platform.Platform,
      code: string
    ) => Effect.Effect<AgentDeviceCodeStatus, DeviceCodeNotFound | StoreFailure.StoreFailure>
    /**
     * Redeems a device code (no credentials: the code is the proof): exactly one of concurrent redeemers gets the
     * access token, shown this once. 404 for an unknown code, 400 for a redeemed, expired or replaced one.
     */
    readonly redeem: (
      code: string,
      sourceAddress?: string
    ) => Effect.Effect<
      AgentDeviceCodeRedeemResponse,
      DeviceCodeNotFound | DeviceCodeUnusable | RateLimited.RateLimited | StoreFailure.StoreFailure
    >
    /**
     * The live agent holding this access token and its platform. Every failure is the same 401 `UNAUTHORIZED`; a
     * deleted agent's token fails at once.
     */
    readonly authenticate: (
      accessToken: Redacted.Redacted<string>,
      sourceAddress?: string
    ) => Effect.Effect<
      AgentCaller,
      PlatformErrors.Unauthenticated | RateLimited.RateLimited | StoreFailure.StoreFailure
    >
  }
>() {}

/** Attempts of a compare-and-set update before a persistent conflict is reported as a store failure. */
const updateAttempts = 5

const noFields = (names: string) => InvalidInput.InvalidInput.onField("body", `must set at least one of ${names}`)

/**
 * `Agents` on the agent ports. Platform operations run in the platform's time (the server runs each request under
 * its caller's clock); redeem reads the code's platform's time itself. Failed redeems and bearer checks count
 * against the source address (`AgentAccessLimits`).
 */
export const layer = Layer.effect(
  Agents,
  Effect.gen(function* () {
    const repo = yield* AgentRepo
    const usage = yield* AgentUsageRepo
    const customers = yield* Customers.Customers
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const installation = yield* AgentInstallation.make
    // What the helpers need beyond the layer's own services, captured once where the layer is built.
    const context = yield* Effect.context<Ids.Ids | InternalAccountRepo.InternalAccountRepo | FxRateCache.FxRateCache>()

    const viewOf = (record: AgentRecord) =>
      Effect.gen(function* () {
        const period = AgentCalendar.periodOf(yield* DateTime.now)
        return AgentView.of(record, yield* usage.current(record.platformId, record.id, period), period)
      })

    const find = (platform: Platform.Platform, id: AgentId) =>
      Effect.flatMap(repo.findById(platform.id, id), (found) =>
        Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(AgentNotFound.of(id))
      )

    const newCode = (platform: Platform.Platform, agentId: AgentId, now: DateTime.Utc) =>
      Effect.gen(function* () {
        const code = yield* Effect.provide(AgentDeviceCodes.generate, context)
        const stored: StoredDeviceCode = {
          codeHash: yield* AgentDeviceCodes.hash(code),
          platformId: platform.id,
          agentId,
          createdAt: now,
          expiresAt: DateTime.addDuration(now, lifetime),
          redeemedAt: undefined,
          invalidatedAt: undefined
        }
        return {
          stored,
          view: new AgentDeviceCode({ code, agentId, expiresAt: stored.expiresAt, redeemed: false })
        }
      })

    /**
     * Applies `change` to the agent with a compare-and-set, re-reading on a lost race; `alongside` runs in the same
     * unit of work once the update applied.
     */
    const modify = <E, R>(
      platform: Platform.Platform,
      id: AgentId,
      change: (
        record: AgentRecord
      ) => Effect.Effect<
        { readonly next: AgentRecord; readonly alongside: Effect.Effect<void, StoreFailure.StoreFailure> },
        E,
        R
      >
    ) =>
      Effect.gen(function* () {
        for (let attempt = 0; attempt < updateAttempts; attempt++) {
          const record = yield* find(platform, id)
          const { alongside, next } = yield* change(record)
          const applied = yield* store.transaction(
            Effect.flatMap(repo.update(next, record.version), (done) =>
              done ? Effect.as(alongside, true) : Effect.succeed(false)
            )
          )
          if (applied) return yield* viewOf({ ...next, version: record.version + 1 })
        }
        return yield* StoreFailure.StoreFailure.of("agents.update", "too many concurrent changes")
      })

    return Agents.of({
      create: Effect.fn("Agents.create")(function* (platform: Platform.Platform, request: CreateAgentRequest) {
        yield* customers.requireLive(platform, request.customerId)
        yield* Effect.provide(
          AgentPolicyAccounts.check(
            platform.id,
            request.customerId,
            request.policy.accountRestrictions,
            "policy.accountRestrictions"
          ),
          context
        )
        const now = yield* DateTime.now
        const record: AgentRecord = {
          id: AgentId.make(ResourceId.format("Agent", yield* ids.uuid)),
          platformId: platform.id,
          name: request.name,
          customerId: request.customerId,
          isPaused: false,
          isConnected: false,
          policy: request.policy,
          createdAt: now,
          updatedAt: now,
          tokenHash: undefined,
          version: 1
        }
        const code = yield* newCode(platform, record.id, now)
        yield* store.transaction(Effect.zipRight(repo.insert(record), repo.insertDeviceCode(code.stored)))
        return { agent: yield* viewOf(record), deviceCode: code.view }
      }),

      get: Effect.fn("Agents.get")(function* (platform: Platform.Platform, id: AgentId) {
        return yield* viewOf(yield* find(platform, id))
      }),

      list: Effect.fn("Agents.list")(function* (
        platform: Platform.Platform,
        filter: AgentFilter,
        page: Page.PageRequest
      ) {
        const records = yield* repo.list(platform.id, filter, page)
        return { ...records, data: yield* Effect.forEach(records.data, viewOf) }
      }),

      update: Effect.fn("Agents.update")(function* (
        platform: Platform.Platform,
        id: AgentId,
        request: UpdateAgentRequest
      ) {
        if (request.name === undefined && request.isPaused === undefined) return yield* noFields("name, isPaused")
        const now = yield* DateTime.now
        return yield* modify(platform, id, (record) =>
          Effect.succeed({
            next: {
              ...record,
              name: request.name ?? record.name,
              isPaused: request.isPaused ?? record.isPaused,
              updatedAt: now
            },
            alongside: Effect.void
          })
        )
      }),

      updatePolicy: Effect.fn("Agents.updatePolicy")(function* (
        platform: Platform.Platform,
        id: AgentId,
        request: AgentPolicyUpdate
      ) {
        if (AgentPolicyMerge.isEmpty(request)) {
          return yield* noFields(
            "permissions, defaultExecutionMode, spendingLimits, accountRestrictions, approvalThresholds"
          )
        }
        const now = yield* DateTime.now
        return yield* modify(platform, id, (record) =>
          Effect.gen(function* () {
            yield* Effect.provide(
              AgentPolicyAccounts.check(
                platform.id,
                record.customerId,
                request.accountRestrictions,
                "accountRestrictions"
              ),
              context
            )
            const change = AgentPolicyMerge.currencyChange(record.policy, request)
            const conversion =
              change === undefined
                ? { numerator: 1n, denominator: 1n }
                : yield* Effect.provide(PolicyCurrency.conversion(change.from, change.to), context)
            return {
              next: { ...record, policy: AgentPolicyMerge.merge(record.policy, request, conversion), updatedAt: now },
              alongside: change === undefined ? Effect.void : usage.rescale(platform.id, id, conversion)
            }
          })
        )
      }),

      delete: Effect.fn("Agents.delete")(function* (platform: Platform.Platform, id: AgentId) {
        const deleted = yield* store.transaction(repo.delete(platform.id, id, yield* DateTime.now))
        if (!deleted) return yield* AgentNotFound.of(id)
      }),

      issueDeviceCode: Effect.fn("Agents.issueDeviceCode")(function* (platform: Platform.Platform, id: AgentId) {
        const record = yield* find(platform, id)
        if (record.isConnected) return yield* AgentAlreadyConnected.of(id)
        const code = yield* newCode(platform, id, yield* DateTime.now)
        yield* store.transaction(repo.insertDeviceCode(code.stored))
        return code.view
      }),

      deviceCodeStatus: Effect.fn("Agents.deviceCodeStatus")(function* (platform: Platform.Platform, code: string) {
        const canonical = AgentDeviceCodes.normalise(code)
        if (Option.isNone(canonical)) return yield* DeviceCodeNotFound.of()
        const found = yield* repo.findDeviceCode(yield* AgentDeviceCodes.hash(canonical.value))
        if (Option.isNone(found) || found.value.platformId !== platform.id) return yield* DeviceCodeNotFound.of()
        return new AgentDeviceCodeStatus({ code: canonical.value, redeemed: found.value.redeemedAt !== undefined })
      }),

      redeem: installation.redeem,
      authenticate: installation.authenticate
    })
  })
)
