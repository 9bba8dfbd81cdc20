#!/usr/bin/env node
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import * as Main from "./Main.js"

// runMain interrupts the program on SIGINT/SIGTERM, which releases every layer: the graceful shutdown. Main reports
// failures and installs its own logger, so runMain does neither.
Main.main(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true, teardown: Main.teardown })
)
