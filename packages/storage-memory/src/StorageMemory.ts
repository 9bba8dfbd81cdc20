import { Layer } from "effect"
import type { Storage } from "@payrail/core"
import * as MemoryAuthMethodRepo from "./accounts/MemoryAuthMethodRepo.js"
import * as MemoryExternalAccountRepo from "./accounts/MemoryExternalAccountRepo.js"
import * as MemoryInternalAccountRepo from "./accounts/MemoryInternalAccountRepo.js"
import * as MemoryCustomerRepo from "./customers/MemoryCustomerRepo.js"
import * as MemoryIdempotencyKeys from "./kernel/MemoryIdempotencyKeys.js"
import * as MemoryOutbox from "./kernel/MemoryOutbox.js"
import * as MemoryRateLimiter from "./kernel/MemoryRateLimiter.js"
import * as MemoryState from "./kernel/MemoryState.js"
import * as MemoryUnitOfWork from "./kernel/MemoryUnitOfWork.js"
import * as MemoryLedger from "./ledger/MemoryLedger.js"
import * as MemoryApiTokenRepo from "./platforms/MemoryApiTokenRepo.js"
import * as MemoryCredentialChanges from "./platforms/MemoryCredentialChanges.js"
import * as MemoryPlatformRepo from "./platforms/MemoryPlatformRepo.js"

/**
 * Every storage port in memory, sharing one state: for tests and throwaway demos. Each build of the layer is a
 * fresh, empty store; nothing survives the process.
 */
export const layer: Layer.Layer<Storage.Services> = Layer.mergeAll(
  MemoryUnitOfWork.layer,
  MemoryPlatformRepo.layer,
  MemoryApiTokenRepo.layer,
  MemoryCustomerRepo.layer,
  MemoryOutbox.layer,
  MemoryLedger.layer,
  MemoryInternalAccountRepo.layer,
  MemoryAuthMethodRepo.layer,
  MemoryExternalAccountRepo.layer,
  MemoryCredentialChanges.layer,
  MemoryRateLimiter.layer,
  MemoryIdempotencyKeys.layer
).pipe(Layer.provide(Layer.merge(MemoryState.layer, MemoryCredentialChanges.versionLayer)))
