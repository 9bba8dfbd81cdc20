import express, { type Express } from "express"
import { Layer } from "effect"
import { Domain, Ids } from "@payrail/core"
import { type PayrailHttp, WebHandler } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { WalletAuth } from "@payrail/wallet-auth"
import { toNodeHandler } from "./webBridge.js"

/** The domain Payrail needs: here in memory with the sandbox KYC provider; swap in StoragePostgres for real data. */
export const payrailServices = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  // Wallet keys for this process only (memory storage): a real deployment reads them with WalletAuth.layerConfig.
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layer)
)

/**
 * The host application: its own routes, plus the whole Payrail API under `/payments`
 * (`/payments/2025-10-13/customers`, `/payments/openapi.json`, `/payments/docs`).
 */
export const makeApp = (
  services: Layer.Layer<PayrailHttp.Services>
): { readonly app: Express; readonly dispose: () => Promise<void> } => {
  const payrail = WebHandler.make({ services })
  const app = express()
  app.get("/hello", (_request, response) => {
    response.json({ message: "hello from the host app" })
  })
  app.use("/payments", toNodeHandler(payrail.handler))
  return { app, dispose: payrail.dispose }
}
