import type { ApiTokenRepo } from "./ApiTokenRepo.js"
import type { AuthMethodRepo } from "./AuthMethodRepo.js"
import type { CustomerRepo } from "./CustomerRepo.js"
import type { ExternalAccountRepo } from "./ExternalAccountRepo.js"
import type { InternalAccountRepo } from "./InternalAccountRepo.js"
import type { Ledger } from "./Ledger.js"
import type { Outbox } from "./Outbox.js"
import type { PlatformRepo } from "./PlatformRepo.js"
import type { Store } from "./Store.js"

/** Every storage tag. A storage adapter provides all of them from one layer, sharing one store. */
export type Services =
  | Store
  | PlatformRepo
  | ApiTokenRepo
  | CustomerRepo
  | Outbox
  | Ledger
  | InternalAccountRepo
  | AuthMethodRepo
  | ExternalAccountRepo
