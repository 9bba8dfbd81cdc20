import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { Domain, Ids, Platforms } from "@payrail/core"
import type { PayrailHttp } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { WalletAuth } from "@payrail/wallet-auth"

/** The domain Payrail needs: here in memory with the sandbox providers; swap in StoragePostgres for real data. */
export const payrailServices = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  // Wallet keys for this process only (memory storage): a real deployment reads them with WalletAuth.layerConfig.
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layer)
)

/** Payrail's domain, running, with one sandbox platform and a token of it: what every framework example mounts. */
export interface SandboxPlatform {
  /** The running domain, to give `WebHandler.make({ services })`: the API shares it with the host. */
  readonly services: Layer.Layer<PayrailHttp.Services>
  /** `<client id>:<client secret>` of a VIEW + MANAGE token, as `curl -u` takes it. */
  readonly credentials: string
  /** The same credentials as an `Authorization: Basic …` header value. */
  readonly authorization: string
  /** Releases the domain (its storage and fibers). */
  readonly dispose: () => Promise<void>
}

/**
 * Starts the domain once (one runtime owns it, so the host and the API see the same data), creates a sandbox
 * platform named `name` and issues it a VIEW + MANAGE token.
 */
export const start = async (name: string): Promise<SandboxPlatform> => {
  const runtime = ManagedRuntime.make(payrailServices)
  const context = await runtime.runPromise(Effect.context<Layer.Layer.Success<typeof payrailServices>>())
  const issued = await runtime.runPromise(
    Effect.gen(function* () {
      const platforms = yield* Platforms.Platforms
      const platform = yield* platforms.create({ name, environment: "SANDBOX" })
      return yield* platforms.issueToken({ platformId: platform.id, name: "host", permissions: ["VIEW", "MANAGE"] })
    })
  )
  const credentials = `${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`
  return {
    services: Layer.succeedContext(context),
    credentials,
    authorization: `Basic ${Buffer.from(credentials).toString("base64")}`,
    dispose: () => runtime.dispose()
  }
}
