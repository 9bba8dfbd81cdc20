import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { AgentActions, AgentCaller, AgentCustomerScope } from "@payrail/core"
import { type AgentAuthentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/**
 * Handlers of the agent API (`/agents/me/...`): each reads the authenticated agent (`CurrentAgent`, provided by the
 * bearer `AgentAuthentication`) and calls `AgentCustomerScope` (accounts, transactions) or `AgentActions` (quotes,
 * transfers, actions), which scope everything to the agent's customer and check its policy. `Idempotency-Key` needs
 * nothing here: the key is claimed, in the agent's own key space, right after the token is checked
 * (`Idempotency.afterAgentAuthentication`).
 */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "agentOperations">,
  never,
  AgentCustomerScope.AgentCustomerScope | AgentActions.AgentActions | AgentAuthentication.AgentAuthentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "agentOperations", (handlers) =>
  Effect.gen(function* () {
    const scope = yield* AgentCustomerScope.AgentCustomerScope
    const actions = yield* AgentActions.AgentActions
    const agent = AgentCaller.CurrentAgent
    return handlers
      .handle("listExternalAccounts", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          return yield* scope.listExternalAccounts(yield* agent, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("createExternalAccount", ({ payload }) =>
        Effect.flatMap(agent, (caller) => scope.createExternalAccount(caller, payload))
      )
      .handle("getExternalAccount", ({ path }) =>
        Effect.flatMap(agent, (caller) => scope.getExternalAccount(caller, path.accountId))
      )
      .handle("deleteExternalAccount", ({ path }) =>
        Effect.flatMap(agent, (caller) => scope.deleteExternalAccount(caller, path.accountId))
      )
      .handle("listInternalAccounts", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          return yield* scope.listInternalAccounts(yield* agent, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("listTransactions", ({ urlParams: { cursor, limit, sortOrder, ...filter } }) =>
        Effect.gen(function* () {
          return yield* scope.listTransactions(
            yield* agent,
            { ...filter, sortOrder: sortOrder ?? "desc" },
            yield* pageRequest(limit, cursor)
          )
        })
      )
      .handle("getTransaction", ({ path }) =>
        Effect.flatMap(agent, (caller) => scope.getTransaction(caller, path.transactionId))
      )
      .handle("createQuote", ({ payload }) => Effect.flatMap(agent, (caller) => actions.createQuote(caller, payload)))
      .handle("getQuote", ({ path }) => Effect.flatMap(agent, (caller) => actions.getQuote(caller, path.quoteId)))
      .handle("executeQuote", ({ path }) =>
        Effect.flatMap(agent, (caller) => actions.executeQuote(caller, path.quoteId))
      )
      .handle("transferOut", ({ payload }) => Effect.flatMap(agent, (caller) => actions.transferOut(caller, payload)))
      .handle("transferIn", ({ payload }) => Effect.flatMap(agent, (caller) => actions.transferIn(caller, payload)))
      .handle("listActions", ({ urlParams: { cursor, limit, status } }) =>
        Effect.gen(function* () {
          return yield* actions.listOwn(
            yield* agent,
            status === undefined ? {} : { status },
            yield* pageRequest(limit, cursor)
          )
        })
      )
      .handle("getAction", ({ path }) => Effect.flatMap(agent, (caller) => actions.getOwn(caller, path.actionId)))
  })
)
