import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import {
  Agent,
  Agents,
  AuthenticationLimits,
  Customers,
  Domain,
  Ids,
  InternalAccountRepo,
  Platforms,
  type Storage
} from "@payrail/core"
import { CardTransactionFixtures } from "@payrail/storage-testkit"
import { Sandbox } from "@payrail/sandbox"
import { WebHandler } from "@payrail/http"
import type { Target } from "./Runner.js"
import * as WalletPorts from "../support/WalletPorts.js"

const basicOf = (clientId: string, secret: Redacted.Redacted<string>) =>
  `Basic ${btoa(`${clientId}:${Redacted.value(secret)}`)}`

/**
 * The API in this process over `storage`, through the web-standard handler (as an embedder mounts it), with a
 * sandbox platform, a token holding every permission and a VIEW-only one. Rate limits are off, so that thousands of
 * fast requests on one token reach the operations instead of a 429 (the limits have their own tests). An agent of a
 * seeded customer is connected, so the agent operations run with its access token. The customer also has an active
 * card on its (unfunded) USD account (stored directly), so the card simulators reach a real card.
 */
export const make = async (
  storage: Layer.Layer<Storage.Services, unknown>
): Promise<Target & { readonly dispose: () => Promise<void> }> => {
  const runtime = ManagedRuntime.make(
    Domain.layer.pipe(
      Layer.provideMerge(storage),
      Layer.provide(WalletPorts.layer),
      Layer.provide(Sandbox.layer),
      Layer.provide(Ids.layer),
      Layer.provide(Layer.succeed(AuthenticationLimits.AuthenticationLimits, AuthenticationLimits.none))
    )
  )
  const context = await runtime.runPromise(Effect.context<Domain.Services | Storage.Services>())
  const [full, view, agent, card] = await runtime.runPromise(
    Effect.gen(function* () {
      const platforms = yield* Platforms.Platforms
      const platform = yield* platforms.create({ name: "Fuzz platform", environment: "SANDBOX" })
      const customer = yield* (yield* Customers.Customers).create(platform, {
        customerType: "INDIVIDUAL",
        fullName: "Fuzz Agent Owner"
      })
      const agents = yield* Agents.Agents
      const created = yield* agents.create(
        platform,
        Agent.CreateAgentRequest.make({
          name: "Fuzz agent",
          customerId: customer.id,
          policy: {
            permissions: [
              "VIEW_TRANSACTIONS",
              "CREATE_TRANSFERS",
              "CREATE_QUOTES",
              "EXECUTE_QUOTES",
              "MANAGE_EXTERNAL_ACCOUNTS"
            ],
            defaultExecutionMode: "AUTO",
            spendingLimits: { currency: "USD", perTransactionLimit: 1_000_000 }
          }
        })
      )
      const redeemed = yield* agents.redeem(created.deviceCode.code)
      const accounts = yield* (yield* InternalAccountRepo.InternalAccountRepo).list(
        platform.id,
        { owner: "customers", customerId: customer.id, currency: "USD", type: "INTERNAL_FIAT" },
        { limit: 1, after: Option.none() }
      )
      const funding = accounts.data[0]
      // Left unfunded: a sandbox funding is a transaction, whose id the transaction cases would then draw.
      const card =
        funding === undefined
          ? undefined
          : yield* CardTransactionFixtures.insertActiveCard(platform.id, customer.id, funding.id)
      return yield* Effect.all([
        platforms.issueToken({ platformId: platform.id, name: "fuzz", permissions: ["VIEW", "TRANSACT", "MANAGE"] }),
        platforms.issueToken({ platformId: platform.id, name: "fuzz view", permissions: ["VIEW"] }),
        Effect.succeed({ id: created.agent.id, token: redeemed.accessToken }),
        Effect.succeed(card)
      ])
    })
  )
  const web = WebHandler.make({ services: Layer.succeedContext(context) })
  return {
    mountUrl: "http://payrail.test",
    fetch: (input, init) => web.handler(new Request(input, init)),
    basic: basicOf(full.token.clientId, full.clientSecret),
    viewBasic: basicOf(view.token.clientId, view.clientSecret),
    agentBearer: `Bearer ${agent.token}`,
    protectedIds: [agent.id],
    knownIds: card === undefined ? [] : [card.id],
    inProcess: true,
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}
