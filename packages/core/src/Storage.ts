import type { ApiTokenRepo, PlatformRepo } from "./platforms/index.js"
import type { AuthMethodRepo, ExternalAccountRepo, InternalAccountRepo } from "./accounts/index.js"
import type { CustomerRepo } from "./customers/index.js"
import type { Ledger } from "./ledger/index.js"
import type { Outbox, Store } from "./kernel/index.js"

/** Every storage tag. A storage adapter provides all of them from one layer, sharing one store. */
export type Services =
  | Store.Store
  | PlatformRepo.PlatformRepo
  | ApiTokenRepo.ApiTokenRepo
  | CustomerRepo.CustomerRepo
  | Outbox.Outbox
  | Ledger.Ledger
  | InternalAccountRepo.InternalAccountRepo
  | AuthMethodRepo.AuthMethodRepo
  | ExternalAccountRepo.ExternalAccountRepo
