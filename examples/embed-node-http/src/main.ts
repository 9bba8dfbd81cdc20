import { makeServer } from "./app.js"
import * as SandboxPlatform from "./SandboxPlatform.js"

const sandbox = await SandboxPlatform.start("node:http host")
const { server } = makeServer(sandbox.services)
const port = Number(process.env.PORT ?? 3000)
server.listen(port, "127.0.0.1", () => {
  console.log(`host route:   curl http://localhost:${port}/hello`)
  console.log(`Payrail API:  curl -u '${sandbox.credentials}' http://localhost:${port}/payments/2025-10-13/customers`)
})
