import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { type AccountErrors, type InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import { Ids, InvalidInput, ResourceId, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { CreateDelegatedKeyRequest, DelegatedKey, DelegatedKeyId } from "./DelegatedKey.js"
import { DelegatedKeyExists, DelegatedKeyNotFound } from "./DelegatedKeyErrors.js"
import { type DelegatedKeyFilter, DelegatedKeyRepo } from "./DelegatedKeyRepo.js"
import { isRetry, type RetryRefused, SignedRetry, type WalletHeaders } from "./SignedRetry.js"
import * as WalletAccounts from "./WalletAccounts.js"
import * as WalletStep from "./WalletStep.js"

type CreateError =
  | RetryRefused
  | InvalidInput.InvalidInput
  | AccountErrors.InternalAccountNotFound
  | DelegatedKeyExists
  | StoreFailure.StoreFailure

/**
 * Delegated signing keys of embedded wallets (docs/incoming-approvals.md, "Delegated signing keys"). Creating one is
 * an outbound wallet action, so it goes through the signed retry: the first leg answers a challenge (operation
 * `CREATE_DELEGATED_KEY`), the retry (stamped by an active session of the wallet, same body) stores the key `ACTIVE`
 * and consumes its request in one unit of work. Listing, reading and revoking need only the platform's credential;
 * revocation takes effect at once (the signature check reads the store on every verification).
 */
export class DelegatedKeys extends Context.Tag("@payrail/core/DelegatedKeys")<
  DelegatedKeys,
  {
    readonly create: (
      platform: Platform.Platform,
      request: CreateDelegatedKeyRequest,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<DelegatedKey>, CreateError>
    /** The platform's keys matching `filter` (at least one of its fields), oldest first, every status. */
    readonly list: (
      platform: Platform.Platform,
      filter: DelegatedKeyFilter
    ) => Effect.Effect<ReadonlyArray<DelegatedKey>, InvalidInput.InvalidInput | StoreFailure.StoreFailure>
    readonly get: (
      platform: Platform.Platform,
      id: DelegatedKeyId
    ) => Effect.Effect<DelegatedKey, DelegatedKeyNotFound | StoreFailure.StoreFailure>
    /** Revokes the key; revoking a revoked key changes nothing and succeeds. */
    readonly revoke: (
      platform: Platform.Platform,
      id: DelegatedKeyId
    ) => Effect.Effect<void, DelegatedKeyNotFound | StoreFailure.StoreFailure>
  }
>() {}

const encode = Schema.encodeSync(CreateDelegatedKeyRequest)

export const layer = Layer.effect(
  DelegatedKeys,
  Effect.gen(function* () {
    const accounts = yield* InternalAccountRepo.InternalAccountRepo
    const keys = yield* DelegatedKeyRepo
    const retry = yield* SignedRetry
    const unitOfWork = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids

    const live = (platformId: Platform.PlatformId, accountId: InternalAccount.InternalAccountId, cardId?: string) =>
      Effect.map(keys.list(platformId, { accountId }), (found) =>
        found.some((key) => key.status !== "REVOKED" && key.cardId === cardId)
      )

    const create = Effect.fn("DelegatedKeys.create")(function* (
      platform: Platform.Platform,
      request: CreateDelegatedKeyRequest,
      headers: WalletHeaders
    ) {
      const account = yield* WalletAccounts.find(accounts, platform.id, request.internalAccountId, "internalAccountId")
      const now = yield* DateTime.now
      if (request.expiresAt !== undefined && !DateTime.lessThan(now, request.expiresAt)) {
        return yield* InvalidInput.InvalidInput.onField("expiresAt", "must be in the future")
      }
      if (yield* live(platform.id, account.id, request.cardId)) {
        return yield* DelegatedKeyExists.of(account.id, request.cardId)
      }
      const action = {
        accountId: account.id,
        operation: "CREATE_DELEGATED_KEY",
        targetId: account.id,
        body: encode(request)
      } as const
      if (!isRetry(headers)) return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action) })
      const authorized = yield* retry.authorize(platform.id, action, headers)
      const key = new DelegatedKey({
        id: DelegatedKeyId.make(ResourceId.format("DelegatedKey", yield* ids.uuid)),
        accountId: account.id,
        ...(request.cardId === undefined ? {} : { cardId: request.cardId }),
        publicKey: request.publicKey.toLowerCase(),
        nickname: request.nickname,
        status: "ACTIVE",
        scopes: request.scopes ?? ["EXECUTE_QUOTE"],
        ...(request.expiresAt === undefined ? {} : { expiresAt: request.expiresAt }),
        createdAt: now,
        updatedAt: now
      })
      yield* unitOfWork.transaction(
        Effect.gen(function* () {
          yield* retry.consume(platform.id, authorized.request)
          if (!(yield* keys.insert(platform.id, key))) {
            return yield* DelegatedKeyExists.of(account.id, request.cardId)
          }
        })
      )
      return WalletStep.Done({ value: key })
    })

    const list = Effect.fn("DelegatedKeys.list")(function* (platform: Platform.Platform, filter: DelegatedKeyFilter) {
      if (filter.accountId === undefined && filter.cardId === undefined) {
        return yield* InvalidInput.InvalidInput.onField("accountId", "give accountId, cardId or both")
      }
      return yield* keys.list(platform.id, filter)
    })

    const get = Effect.fn("DelegatedKeys.get")(function* (platform: Platform.Platform, id: DelegatedKeyId) {
      const found = yield* keys.findById(platform.id, id)
      if (Option.isNone(found)) return yield* DelegatedKeyNotFound.of(id)
      return found.value
    })

    const revoke = Effect.fn("DelegatedKeys.revoke")(function* (platform: Platform.Platform, id: DelegatedKeyId) {
      yield* get(platform, id)
      yield* keys.revoke(platform.id, id, yield* DateTime.now)
    })

    return DelegatedKeys.of({ create, list, get, revoke })
  })
)
