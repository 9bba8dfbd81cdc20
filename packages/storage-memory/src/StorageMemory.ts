import { Layer } from "effect"
import type { Storage } from "@payrail/core"
import * as MemoryApiTokenRepo from "./MemoryApiTokenRepo.js"
import * as MemoryAuthMethodRepo from "./MemoryAuthMethodRepo.js"
import * as MemoryCustomerRepo from "./MemoryCustomerRepo.js"
import * as MemoryExternalAccountRepo from "./MemoryExternalAccountRepo.js"
import * as MemoryInternalAccountRepo from "./MemoryInternalAccountRepo.js"
import * as MemoryLedger from "./MemoryLedger.js"
import * as MemoryOutbox from "./MemoryOutbox.js"
import * as MemoryPlatformRepo from "./MemoryPlatformRepo.js"
import * as MemoryState from "./MemoryState.js"
import * as MemoryStore from "./MemoryStore.js"

/**
 * Every storage port in memory, sharing one state: for tests and throwaway demos. Each build of the layer is a
 * fresh, empty store; nothing survives the process.
 */
export const layer: Layer.Layer<Storage.Services> = Layer.mergeAll(
  MemoryStore.layer,
  MemoryPlatformRepo.layer,
  MemoryApiTokenRepo.layer,
  MemoryCustomerRepo.layer,
  MemoryOutbox.layer,
  MemoryLedger.layer,
  MemoryInternalAccountRepo.layer,
  MemoryAuthMethodRepo.layer,
  MemoryExternalAccountRepo.layer
).pipe(Layer.provide(MemoryState.layer))
