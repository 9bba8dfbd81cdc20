import { Duration, Effect, Fiber, Layer, ManagedRuntime, Redacted } from "effect"
import { Domain, Ids, JobWorker, PaymentJobs, Platforms, type Storage } from "@payrail/core"
import { WebHandler } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { WalletAuth } from "@payrail/wallet-auth"

/** The API version every call of the backend names. */
export const apiVersion = "2025-10-13"

/** An answer of the Payrail API: its status and its JSON body (`undefined` for an empty one). */
export interface Answer {
  readonly status: number
  readonly body: unknown
}

/**
 * The domain in memory with the sandbox providers (one-time codes included: captured, never sent): what the web
 * handler and the job worker share. The wallet keys are drawn for this process only, like the memory store they
 * protect; a real host keeps them with `WalletAuth.layerConfig` (`PAYRAIL_WALLET_MASTER_KEY`,
 * `PAYRAIL_WALLET_SIGNER_KEY`).
 */
export const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provideMerge(Ids.layer)
)

type Services = Domain.Services | Storage.Services

/**
 * Payrail embedded in the backend: the web handler (mounted by the server under `/payrail`), a sandbox platform with
 * its Basic credentials (held here only, never sent to the page), a `call` that uses them, and the job worker that
 * settles payments. `dispose` stops the worker and releases the domain.
 */
export interface Payrail {
  readonly handler: (request: Request) => Promise<Response>
  /** Calls `/<version><path>` of the API in process with the platform's credentials. */
  readonly call: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>
  ) => Promise<Answer>
  readonly dispose: () => Promise<void>
}

/** Starts Payrail in memory with a new sandbox platform (USD and the platform stablecoin USDC, the default). */
export const start = async (): Promise<Payrail> => {
  const runtime = ManagedRuntime.make(services)
  const context = await runtime.runPromise(Effect.context<Services>())
  const web = WebHandler.make({ services: Layer.succeedContext(context), prefix: "/payrail" })
  const issued = await runtime.runPromise(
    Effect.gen(function* () {
      const platforms = yield* Platforms.Platforms
      const platform = yield* platforms.create({ name: "Wallet web example", environment: "SANDBOX" })
      return yield* platforms.issueToken({
        platformId: platform.id,
        name: "wallet-web backend",
        permissions: ["VIEW", "TRANSACT", "MANAGE"]
      })
    })
  )
  const authorization = `Basic ${Buffer.from(`${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`).toString("base64")}`
  const worker = runtime.runFork(
    JobWorker.run([PaymentJobs.settlementHandler, PaymentJobs.expiryHandler, PaymentJobs.incomingCompletionHandler], {
      concurrency: 4,
      lease: Duration.seconds(30),
      shutdownGrace: Duration.seconds(2)
    })
  )

  const call: Payrail["call"] = async (method, path, body, headers = {}) => {
    const response = await web.handler(
      new Request(`http://payrail.internal/payrail/${apiVersion}${path}`, {
        method,
        headers: {
          authorization,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    )
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  return {
    handler: web.handler,
    call,
    dispose: async () => {
      await runtime.runPromise(Fiber.interrupt(worker))
      await web.dispose()
      await runtime.dispose()
    }
  }
}
