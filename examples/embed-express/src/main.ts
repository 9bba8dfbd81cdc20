import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { Platforms } from "@payrail/core"
import { makeApp, payrailServices } from "./app.js"

// One runtime owns the domain: the host uses it to create a platform and a token, and the API shares it.
const runtime = ManagedRuntime.make(payrailServices)
const context = await runtime.runPromise(Effect.context<Layer.Layer.Success<typeof payrailServices>>())
const issued = await runtime.runPromise(
  Effect.gen(function* () {
    const platforms = yield* Platforms.Platforms
    const platform = yield* platforms.create({ name: "Express host", environment: "SANDBOX" })
    return yield* platforms.issueToken({ platformId: platform.id, name: "host", permissions: ["VIEW", "MANAGE"] })
  })
)

const { app } = makeApp(Layer.succeedContext(context))
const port = Number(process.env.PORT ?? 3000)
app.listen(port, () => {
  const auth = `${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`
  console.log(`host route:   curl http://localhost:${port}/hello`)
  console.log(`Payrail API:  curl -u '${auth}' http://localhost:${port}/payments/2025-10-13/customers`)
})
