import { serve } from "@hono/node-server"
import type { AddressInfo } from "node:net"
import { describeMountedApi } from "@payrail/example-embed-node-http/test/MountedApi"
import { makeApp } from "../src/app.js"

describeMountedApi("Hono", async (services) => {
  const { app, dispose } = makeApp(services)
  let server: ReturnType<typeof serve> | undefined
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => resolve(info.port))
  })
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise((done) => server?.close(done))
      await dispose()
    }
  }
})
