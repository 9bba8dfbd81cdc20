import { DateTime, Duration, Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import {
  Agent,
  Agents,
  AuthenticationLimits,
  CardJobs,
  CardProvisioningJob,
  Cards,
  Customer,
  CustomerRepo,
  Customers,
  Domain,
  Ids,
  InternalAccountRepo,
  Jobs,
  type Platform,
  Platforms,
  type Storage
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WebHandler } from "@payrail/http"
import type { Target } from "./Runner.js"
import * as WalletPorts from "../support/WalletPorts.js"
import { BulkImports, PlatformRepo } from "@payrail/core"
import { Stream } from "effect"

const basicOf = (clientId: string, secret: Redacted.Redacted<string>) =>
  `Basic ${btoa(`${clientId}:${Redacted.value(secret)}`)}`

/** An `APPROVED` cardholder's card, funded by its USD account and provisioned: its id. */
const activeCard = (platform: Platform.Platform) =>
  Effect.gen(function* () {
    const holder = yield* (yield* Customers.Customers).create(platform, {
      customerType: "INDIVIDUAL",
      fullName: "Fuzz Cardholder"
    })
    const customers = yield* CustomerRepo.CustomerRepo
    const stored = Option.getOrThrow(yield* customers.findById(platform.id, holder.id))
    if (stored.customer.customerType === "INDIVIDUAL") {
      const customer = new Customer.IndividualCustomer({ ...stored.customer, kycStatus: "APPROVED" })
      yield* customers.update(platform.id, { ...stored, customer, version: stored.version + 1 }, stored.version)
    }
    const accounts = yield* (yield* InternalAccountRepo.InternalAccountRepo).list(
      platform.id,
      { owner: "customers", customerId: holder.id, type: "INTERNAL_FIAT", currency: "USD" },
      { limit: 1, after: Option.none() }
    )
    const fundingSource = accounts.data[0]?.id ?? ""
    const card = yield* (yield* Cards.Cards).create(platform, { customerId: holder.id, form: "VIRTUAL", fundingSource })
    const jobs = yield* Jobs.Jobs
    const due = yield* jobs.claim({ limit: 100, now: yield* DateTime.now, lease: Duration.minutes(1) })
    for (const claimed of due) {
      if (claimed.job.kind !== CardProvisioningJob.kind) {
        yield* jobs.release(claimed)
        continue
      }
      yield* (yield* CardJobs.CardJobs).provision(claimed.job)
      yield* jobs.complete(claimed)
    }
    return card.id
  }).pipe(Effect.orDie)

/**
 * The API in this process over `storage`, through the web-standard handler (as an embedder mounts it), with a
 * sandbox platform, a token holding every permission and a VIEW-only one. Rate limits are off, so that thousands of
 * fast requests on one token reach the operations instead of a 429 (the limits have their own tests). An agent of a
 * seeded customer is connected, so the agent operations run with its access token. An `APPROVED` cardholder holds an
 * active card (its KYC status and its provisioning are set here: the API cannot approve a customer of a sandbox
 * platform that does not skip paperwork), so the card operations find one.
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
      const cardId = yield* activeCard(platform)
      return yield* Effect.all([
        platforms.issueToken({ platformId: platform.id, name: "fuzz", permissions: ["VIEW", "TRANSACT", "MANAGE"] }),
        platforms.issueToken({ platformId: platform.id, name: "fuzz view", permissions: ["VIEW"] }),
        Effect.succeed({ id: created.agent.id, token: redeemed.accessToken }),
        Effect.succeed(cardId)
      ])
    })
  )
  // A bulk customer import of the platform, so that GET /customers/bulk/jobs/{jobId} finds one.
  const bulkJob = await runtime.runPromise(
    Effect.gen(function* () {
      const platform = Option.getOrThrow(yield* (yield* PlatformRepo.PlatformRepo).findById(full.token.platformId))
      const csv = "umaAddress,platformCustomerId,customerType,addressLine1,city,state,postalCode,country\n"
      const accepted = yield* (yield* BulkImports.BulkImports).upload(
        platform,
        Stream.make(new TextEncoder().encode(`${csv}$fuzz@fuzz.example.com,fuzz-bulk,INDIVIDUAL,1 St,X,Y,1,US\n`))
      )
      return accepted.jobId
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
    seededIds: [card, bulkJob],
    inProcess: true,
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}
