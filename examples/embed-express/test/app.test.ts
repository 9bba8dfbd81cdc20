import { describeMountedApi, listenOnLoopback } from "@payrail/example-embed-node-http/test/MountedApi"
import { makeApp } from "../src/app.js"

describeMountedApi("Express", (services) => {
  const { app, dispose } = makeApp(services)
  return listenOnLoopback(app.listen(0, "127.0.0.1"), dispose)
})
