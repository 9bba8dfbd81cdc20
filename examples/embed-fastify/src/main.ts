import * as SandboxPlatform from "@payrail/example-embed-node-http/SandboxPlatform"
import { makeApp } from "./app.js"

const sandbox = await SandboxPlatform.start("Fastify host")
const { app } = makeApp(sandbox.services)
const port = Number(process.env.PORT ?? 3000)
await app.listen({ port, host: "127.0.0.1" })
console.log(`host route:   curl http://localhost:${port}/hello`)
console.log(`Payrail API:  curl -u '${sandbox.credentials}' http://localhost:${port}/payments/2025-10-13/customers`)
