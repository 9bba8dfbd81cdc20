import { Clock, DateTime, Effect, Option, Redacted } from "effect"
import { Ids, PlatformTime, RateLimited, type RateLimiter, RateLimitTable, UnitOfWork } from "../kernel/index.js"
import { AuthenticationLimits, PlatformErrors, PlatformRepo, SandboxClock } from "../platforms/index.js"
import * as AgentAccessLimits from "./AgentAccessLimits.js"
import type { AgentCaller } from "./AgentCaller.js"
import { AgentDeviceCodeRedeemResponse, type StoredDeviceCode } from "./AgentDeviceCode.js"
import * as AgentDeviceCodes from "./AgentDeviceCodes.js"
import { DeviceCodeNotFound, DeviceCodeUnusable } from "./AgentErrors.js"
import { AgentRepo } from "./AgentRepo.js"
import type { Agents } from "./Agents.js"
import * as AgentToken from "./AgentToken.js"

/**
 * The two steps of an agent's access that carry no platform credentials: redeeming a device code for an access
 * token, and checking that token on every agent request. Both count their failures against the source address
 * (`AgentAccessLimits`); neither ever logs a code or a token. An agent's requests are limited per agent as a
 * platform's are per API token (`AuthenticationLimits.requestsPerToken`, named `requests_per_agent_token` in the
 * refusal), in this process.
 */
export type AgentInstallation = Pick<Agents["Type"], "redeem" | "authenticate">

/** Why a stored code cannot be redeemed at `now` (the platform's time), if it cannot. */
export const unusable = (code: StoredDeviceCode, now: DateTime.Utc): DeviceCodeUnusable | undefined =>
  code.redeemedAt !== undefined
    ? DeviceCodeUnusable.of("already_redeemed")
    : code.invalidatedAt !== undefined
      ? DeviceCodeUnusable.of("invalidated")
      : DateTime.lessThanOrEqualTo(code.expiresAt, now)
        ? DeviceCodeUnusable.of("expired")
        : undefined

/** The limit's name in the refusal's `details.limit` when an agent sends requests faster than its bucket allows. */
export const requestsPerAgentToken = "requests_per_agent_token"

// The most agents whose request buckets this process remembers; beyond it the least recently used goes first.
const requestTableCapacity = 10_000

/** Redeem and authenticate on the agent ports; a code's expiry is judged in its platform's time. */
export const make: Effect.Effect<
  AgentInstallation,
  never,
  AgentRepo | PlatformRepo.PlatformRepo | UnitOfWork.UnitOfWork | Ids.Ids | RateLimiter.RateLimiter
> = Effect.gen(function* () {
  const repo = yield* AgentRepo
  const platforms = yield* PlatformRepo.PlatformRepo
  const store = yield* UnitOfWork.UnitOfWork
  const guard = yield* AgentAccessLimits.make
  const context = yield* Effect.context<Ids.Ids>()
  const requestLimit = Option.map((yield* AuthenticationLimits.AuthenticationLimits).requestsPerToken, (limit) => ({
    ...limit,
    name: requestsPerAgentToken
  }))
  const requests = RateLimitTable.make(requestTableCapacity)

  // Admits one more request of the agent, or refuses it until its bucket refills.
  const admit = (caller: AgentCaller) =>
    Effect.gen(function* () {
      if (Option.isNone(requestLimit)) return caller
      const admission = requests.consume(caller.agent.id, requestLimit.value, yield* Clock.currentTimeMillis)
      if (admission.admitted) return caller
      return yield* Effect.fail(RateLimited.RateLimited.of(requestLimit.value, admission.retryAfterMillis))
    })

  const redeemCode = (typed: string) =>
    Effect.gen(function* () {
      const canonical = AgentDeviceCodes.normalise(typed)
      if (Option.isNone(canonical)) return yield* DeviceCodeNotFound.of()
      const codeHash = yield* AgentDeviceCodes.hash(canonical.value)
      const found = yield* repo.findDeviceCode(codeHash)
      if (Option.isNone(found)) return yield* DeviceCodeNotFound.of()
      const code = found.value
      const platform = yield* platforms.findById(code.platformId)
      if (Option.isNone(platform)) return yield* DeviceCodeNotFound.of()
      const now = yield* PlatformTime.within(SandboxClock.offsetOf(platform.value))(DateTime.now)
      const refusal = unusable(code, now)
      if (refusal !== undefined) return yield* refusal
      const issued = yield* Effect.provide(AgentToken.issue, context)
      if (!(yield* store.transaction(repo.redeemDeviceCode(codeHash, issued.hash, now)))) {
        const latest = yield* repo.findDeviceCode(codeHash)
        return yield* Option.isSome(latest) && latest.value.redeemedAt !== undefined
          ? DeviceCodeUnusable.of("already_redeemed")
          : (unusable(
              Option.getOrElse(latest, () => code),
              now
            ) ?? DeviceCodeUnusable.of("invalidated"))
      }
      const agent = yield* repo.findById(code.platformId, code.agentId)
      if (Option.isNone(agent)) return yield* DeviceCodeUnusable.of("invalidated")
      return new AgentDeviceCodeRedeemResponse({
        agentId: agent.value.id,
        agentName: agent.value.name,
        accessToken: issued.token,
        policy: agent.value.policy
      })
    })

  const check = (accessToken: Redacted.Redacted<string>) =>
    Effect.gen(function* () {
      const token = Redacted.value(accessToken)
      if (!AgentToken.isWellFormed(token)) return yield* PlatformErrors.Unauthenticated.of("agent_token")
      const agent = yield* repo.findByTokenHash(yield* AgentToken.hash(token))
      if (Option.isNone(agent)) return yield* PlatformErrors.Unauthenticated.of("agent_token")
      const platform = yield* platforms.findById(agent.value.platformId)
      if (Option.isNone(platform)) return yield* PlatformErrors.Unauthenticated.of("agent_token")
      const caller: AgentCaller = { platform: platform.value, agent: agent.value }
      return caller
    })

  return {
    redeem: (code, sourceAddress) =>
      guard
        .guard(
          sourceAddress,
          (error) => error._tag === "DeviceCodeNotFound" || error._tag === "DeviceCodeUnusable",
          redeemCode(code)
        )
        .pipe(Effect.withSpan("Agents.redeem")),
    authenticate: (accessToken, sourceAddress) =>
      guard
        .guard(sourceAddress, (error) => error._tag === "Unauthenticated", check(accessToken))
        .pipe(Effect.flatMap(admit), Effect.withSpan("Agents.authenticate"))
  }
})
