import { once } from "node:events"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PayrailHttp } from "@payrail/http"
import * as SandboxPlatform from "../src/SandboxPlatform.js"

/** A host app listening on loopback: its base URL and how to stop it. */
export interface Listening {
  readonly base: string
  readonly close: () => Promise<void>
}

/** Listens with `server` on an ephemeral loopback port; closing it stops the server, then calls `dispose`. */
export const listenOnLoopback = async (server: Server, dispose: () => Promise<void>): Promise<Listening> => {
  if (!server.listening) server.listen(0, "127.0.0.1")
  if (!server.listening) await once(server, "listening")
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve))
      await dispose()
    }
  }
}

/**
 * What every framework example guarantees, over a real socket on an ephemeral port: the host's `GET /hello` stays
 * the host's, the API under `/payments` creates and reads back a customer, answers its error body (401, 400), serves
 * its OpenAPI document, and an unknown host path is the framework's 404.
 */
export const describeMountedApi = (
  framework: string,
  listen: (services: Layer.Layer<PayrailHttp.Services>) => Promise<Listening>
): void => {
  describe(`Payrail mounted in ${framework}`, () => {
    let sandbox: SandboxPlatform.SandboxPlatform
    let host: Listening

    beforeAll(async () => {
      sandbox = await SandboxPlatform.start(`${framework} test`)
      host = await listen(sandbox.services)
    })

    afterAll(async () => {
      await host.close()
      await sandbox.dispose()
    })

    it("leaves the host's own routes to the host", async () => {
      const response = await fetch(`${host.base}/hello`)
      expect(await response.json()).toEqual({ message: "hello from the host app" })
      expect((await fetch(`${host.base}/elsewhere`)).status).toBe(404)
    })

    it("serves the API under /payments: create, then read back a customer", async () => {
      const created = await fetch(`${host.base}/payments/2025-10-13/customers`, {
        method: "POST",
        headers: { authorization: sandbox.authorization, "content-type": "application/json" },
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Host User", email: "host@example.com" })
      })
      expect(created.status).toBe(201)
      const customer = await created.json()
      expect(customer).toMatchObject({ fullName: "Host User", email: "host@example.com" })
      const read = await fetch(`${host.base}/payments/2025-10-13/customers/${customer.id}`, {
        headers: { authorization: sandbox.authorization }
      })
      expect(read.status).toBe(200)
      expect(await read.json()).toEqual(customer)
    })

    it("answers API errors with the error body and serves the OpenAPI document under the mount path", async () => {
      const unauthorized = await fetch(`${host.base}/payments/2025-10-13/customers`)
      expect(unauthorized.status).toBe(401)
      expect(await unauthorized.json()).toMatchObject({ code: "UNAUTHORIZED" })
      const invalid = await fetch(`${host.base}/payments/2025-10-13/customers`, {
        method: "POST",
        headers: { authorization: sandbox.authorization, "content-type": "application/json" },
        body: "{not json"
      })
      expect(invalid.status).toBe(400)
      expect(await invalid.json()).toMatchObject({ code: "INVALID_INPUT" })
      const openApi = await fetch(`${host.base}/payments/openapi.json`)
      expect(openApi.status).toBe(200)
      expect(await openApi.json()).toMatchObject({ openapi: expect.any(String) })
    })
  })
}
