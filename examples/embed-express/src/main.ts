import * as SandboxPlatform from "@payrail/example-embed-node-http/SandboxPlatform"
import { makeApp } from "./app.js"

// One runtime owns the domain: SandboxPlatform creates a platform and a token with it, and the API shares it.
const sandbox = await SandboxPlatform.start("Express host")
const { app } = makeApp(sandbox.services)
const port = Number(process.env.PORT ?? 3000)
app.listen(port, () => {
  console.log(`host route:   curl http://localhost:${port}/hello`)
  console.log(`Payrail API:  curl -u '${sandbox.credentials}' http://localhost:${port}/payments/2025-10-13/customers`)
})
