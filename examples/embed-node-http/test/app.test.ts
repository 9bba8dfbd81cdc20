import { makeServer } from "../src/app.js"
import { describeMountedApi, listenOnLoopback } from "./MountedApi.js"

describeMountedApi("a bare node:http server", (services) => {
  const { server, dispose } = makeServer(services)
  return listenOnLoopback(server, dispose)
})
