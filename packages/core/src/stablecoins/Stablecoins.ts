import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { ExternalAccountRepo } from "../accounts/index.js"
import { Ids, Outbox, type Page, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { Jobs } from "../events/index.js"
import { Ledger } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import {
  type Stablecoin,
  type StablecoinFilter,
  type StablecoinId,
  Stablecoin as StablecoinRecord
} from "./Stablecoin.js"
import { checkBurn, checkMint } from "./StablecoinAccounts.js"
import {
  type BurnFailure,
  type MintFailure,
  type ProviderAccountInvalid,
  type ProviderAccountNotFound,
  type ProviderAccountSelectionRequired,
  type StablecoinAlreadyRegistered,
  StablecoinNotFound,
  StablecoinNotProvisioned,
  StablecoinOperationNotFound
} from "./StablecoinErrors.js"
import * as StablecoinEvents from "./StablecoinEvents.js"
import * as StablecoinLinks from "./StablecoinLinks.js"
import {
  type OperationType,
  type StablecoinOperation,
  StablecoinOperationId,
  type StablecoinOperationId as OperationId
} from "./StablecoinOperation.js"
import * as StablecoinOperationRecord from "./StablecoinOperationRecord.js"
import { StablecoinProvider } from "./StablecoinProvider.js"
import type {
  ProviderAccountFilter,
  StablecoinProviderAccount,
  StablecoinProviderAccountId,
  StoredProviderAccount
} from "./StablecoinProviderAccount.js"
import { StablecoinRepo } from "./StablecoinRepo.js"
import type {
  BurnRequest,
  LinkProviderAccountRequest,
  MintRequest,
  RegisterStablecoinRequest
} from "./StablecoinRequest.js"
import * as StablecoinSettlementJob from "./StablecoinSettlementJob.js"
import * as StablecoinSupply from "./StablecoinSupply.js"

type LinkFailure = StablecoinLinks.LinkFailure

/**
 * Stablecoin issuance (docs/stablecoins.md): link provider accounts, register the provider's stablecoins, mint and
 * burn them. A mint or a burn, its ledger posting and its webhook event commit in one unit of work; a failure
 * leaves nothing.
 */
export class Stablecoins extends Context.Tag("@payrail/core/Stablecoins")<
  Stablecoins,
  {
    /** Verifies the credentials with the provider and links the account in the platform's environment. */
    readonly linkProviderAccount: (
      platform: Platform.Platform,
      request: LinkProviderAccountRequest
    ) => Effect.Effect<StablecoinProviderAccount, ProviderAccountInvalid | StoreFailure.StoreFailure>
    readonly getProviderAccount: (
      platform: Platform.Platform,
      id: StablecoinProviderAccountId
    ) => Effect.Effect<StablecoinProviderAccount, ProviderAccountNotFound | StoreFailure.StoreFailure>
    readonly listProviderAccounts: (
      platform: Platform.Platform,
      filter: ProviderAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<StablecoinProviderAccount>, StoreFailure.StoreFailure>
    /**
     * Registers a provider-created token against the chosen link, or the only `ACTIVE` one; opens its supply
     * account in the ledger. A token the platform registered already (same `network` and `networkTokenIdentifier`)
     * is `StablecoinAlreadyRegistered` and nothing is recorded, under any concurrency.
     */
    readonly register: (
      platform: Platform.Platform,
      request: RegisterStablecoinRequest
    ) => Effect.Effect<
      Stablecoin,
      LinkFailure | ProviderAccountSelectionRequired | StablecoinAlreadyRegistered | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      id: StablecoinId
    ) => Effect.Effect<Stablecoin, StablecoinNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: StablecoinFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Stablecoin>, StoreFailure.StoreFailure>
    /** Mints: a completed mint credits the stablecoin's supply. */
    readonly mint: (
      platform: Platform.Platform,
      id: StablecoinId,
      request: MintRequest
    ) => Effect.Effect<StablecoinOperation, MintFailure>
    /** Burns: a completed burn debits the supply, never below zero (`InsufficientFunds`). */
    readonly burn: (
      platform: Platform.Platform,
      id: StablecoinId,
      request: BurnRequest
    ) => Effect.Effect<StablecoinOperation, BurnFailure>
    readonly listOperations: (
      platform: Platform.Platform,
      id: StablecoinId,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<StablecoinOperation>, StablecoinNotFound | StoreFailure.StoreFailure>
    readonly getOperation: (
      platform: Platform.Platform,
      id: OperationId
    ) => Effect.Effect<StablecoinOperation, StablecoinOperationNotFound | StoreFailure.StoreFailure>
  }
>() {}

export const layer = Layer.effect(
  Stablecoins,
  Effect.gen(function* () {
    const repo = yield* StablecoinRepo
    const provider = yield* StablecoinProvider
    const ledger = yield* Ledger.Ledger
    const outbox = yield* Outbox.Outbox
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const jobs = yield* Jobs.Jobs
    const accounts = yield* Effect.context<ExternalAccountRepo.ExternalAccountRepo>()

    const withRepo = <A, E>(effect: Effect.Effect<A, E, StablecoinRepo>) =>
      Effect.provideService(effect, StablecoinRepo, repo)
    const findLink = (platform: Platform.Platform, id: StablecoinProviderAccountId) =>
      withRepo(StablecoinLinks.find(platform, id))

    const findCoin = (platform: Platform.Platform, id: StablecoinId) =>
      Effect.flatMap(
        repo.findStablecoin(platform.id, id),
        Option.match({ onNone: () => Effect.fail(StablecoinNotFound.of(id)), onSome: Effect.succeed })
      )

    const linkProviderAccount = Effect.fn("Stablecoins.linkProviderAccount")(function* (
      platform: Platform.Platform,
      request: LinkProviderAccountRequest
    ) {
      const verified = yield* provider.verify({ ...request, environment: platform.environment })
      const stored = StablecoinLinks.linked(platform, request.provider, verified, yield* ids.uuid, yield* DateTime.now)
      yield* store.transaction(repo.insertProviderAccount(stored))
      return stored.account
    })

    const register = Effect.fn("Stablecoins.register")(function* (
      platform: Platform.Platform,
      request: RegisterStablecoinRequest
    ) {
      const link = yield* withRepo(StablecoinLinks.choose(platform, request.stablecoinProviderAccountId))
      const { network, networkTokenIdentifier, providerTokenIdentifier } = request
      const token = yield* provider.token({ link, providerTokenIdentifier, network, networkTokenIdentifier })
      const now = yield* DateTime.now
      const stablecoin = new StablecoinRecord({
        id: StablecoinRecord.fields.id.make(`Stablecoin:${yield* ids.uuid}`),
        ...token,
        gridOperationsStatus: "NOT_ENABLED",
        network,
        networkTokenIdentifier,
        provider: link.account.provider,
        stablecoinProviderAccountId: link.account.id,
        providerEnvironment: link.account.providerEnvironment,
        providerTokenIdentifier,
        createdAt: now,
        updatedAt: now
      })
      yield* store.transaction(
        Effect.gen(function* () {
          yield* ledger
            .openAccounts(StablecoinSupply.accounts(platform.id, stablecoin))
            .pipe(Effect.catchTag("InvalidPosting", Effect.die))
          yield* repo.insertStablecoin(platform.id, stablecoin)
        })
      )
      return stablecoin
    })

    // What every mint and burn checks first: the stablecoin, its link, its issuance, the amount.
    const prepare = Effect.fn("Stablecoins.prepare")(function* (
      platform: Platform.Platform,
      id: StablecoinId,
      amount: string
    ) {
      const stablecoin = yield* findCoin(platform, id)
      const link = yield* StablecoinLinks.usable(yield* findLink(platform, stablecoin.stablecoinProviderAccountId))
      if (stablecoin.issuanceStatus !== "PROVISIONED") {
        return yield* StablecoinNotProvisioned.of(stablecoin.id, stablecoin.issuanceStatus)
      }
      const minor = yield* StablecoinSupply.baseMinor(amount, stablecoin)
      return { stablecoin, link, minor }
    })

    // Asks the provider, then records the operation, its posting (when completed) and its event in one unit of work.
    const execute = Effect.fn("Stablecoins.execute")(function* (
      platform: Platform.Platform,
      prepared: { readonly stablecoin: Stablecoin; readonly link: StoredProviderAccount; readonly minor: bigint },
      operationType: OperationType,
      request: MintRequest | BurnRequest
    ) {
      const { link, minor, stablecoin } = prepared
      const operationId = StablecoinOperationId.make(`StablecoinOperation:${yield* ids.uuid}`)
      const outcome = yield* provider.transfer({
        link,
        stablecoin,
        operationId,
        operationType,
        amount: BigInt(request.amount),
        description: request.description
      })
      const now = yield* DateTime.now
      const operation = StablecoinOperationRecord.make({
        id: operationId,
        stablecoin,
        link,
        operationType,
        request,
        outcome,
        now
      })
      yield* store.transaction(
        Effect.gen(function* () {
          // A mint credits the supply once completed; a burn debits it once the provider took it (even pending).
          if (operation.status === "COMPLETED" || (operationType === "BURN" && operation.status === "PENDING")) {
            yield* Effect.provideService(
              StablecoinSupply.post(platform.id, stablecoin, operationId, operationType, minor),
              Ledger.Ledger,
              ledger
            )
          }
          yield* repo.insertOperation({ platformId: platform.id, operation })
          if (operation.status === "PENDING") {
            yield* jobs.enqueue(StablecoinSettlementJob.newJob(platform.id, operation.id, now))
          }
          yield* outbox.append(
            yield* Effect.provideService(StablecoinEvents.ofOperation(platform.id, operation), Ids.Ids, ids)
          )
        })
      )
      return operation
    })

    const mint = Effect.fn("Stablecoins.mint")(function* (
      platform: Platform.Platform,
      id: StablecoinId,
      request: MintRequest
    ) {
      const prepared = yield* prepare(platform, id, request.amount)
      yield* Effect.provide(checkMint(platform, request), accounts)
      // A mint only credits the guarded supply account: it cannot overdraw it.
      return yield* execute(platform, prepared, "MINT", request).pipe(Effect.catchTag("InsufficientFunds", Effect.die))
    })

    const burn = Effect.fn("Stablecoins.burn")(function* (
      platform: Platform.Platform,
      id: StablecoinId,
      request: BurnRequest
    ) {
      const prepared = yield* prepare(platform, id, request.amount)
      yield* Effect.provide(checkBurn(platform, request), accounts)
      // Refused before the provider is asked; the posting's guard decides under concurrency.
      const supply = yield* Effect.provideService(
        StablecoinSupply.supply(platform.id, prepared.stablecoin),
        Ledger.Ledger,
        ledger
      )
      if (supply < prepared.minor) return yield* Ledger.InsufficientFunds.of(prepared.stablecoin.id)
      // A burn only debits the supply (whose balance falls): it cannot pass the balance limit.
      return yield* execute(platform, prepared, "BURN", request).pipe(
        Effect.catchTag("BalanceLimitExceeded", Effect.die)
      )
    })

    return Stablecoins.of({
      linkProviderAccount,
      getProviderAccount: Effect.fn("Stablecoins.getProviderAccount")(function* (platform, id) {
        return (yield* findLink(platform, id)).account
      }),
      listProviderAccounts: (platform, filter, page) => repo.listProviderAccounts(platform.id, filter, page),
      register,
      get: Effect.fn("Stablecoins.get")(function* (platform, id) {
        return yield* findCoin(platform, id)
      }),
      list: (platform, filter, page) => repo.listStablecoins(platform.id, filter, page),
      mint,
      burn,
      listOperations: Effect.fn("Stablecoins.listOperations")(function* (platform, id, page) {
        yield* findCoin(platform, id)
        return yield* repo.listOperations(platform.id, id, page)
      }),
      getOperation: Effect.fn("Stablecoins.getOperation")(function* (platform, id) {
        const found = yield* repo.findOperation(platform.id, id)
        if (Option.isNone(found)) return yield* StablecoinOperationNotFound.of(id)
        return found.value
      })
    })
  })
)
