import { describeMountedApi } from "@payrail/example-embed-node-http/test/MountedApi"
import { makeApp } from "../src/app.js"

describeMountedApi("Fastify", async (services) => {
  const { app, dispose } = makeApp(services)
  const base = await app.listen({ port: 0, host: "127.0.0.1" })
  return {
    base,
    close: async () => {
      await app.close()
      await dispose()
    }
  }
})
