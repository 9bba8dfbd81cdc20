import { Context, DateTime, Effect, Layer } from "effect"
import { type AccountErrors, type InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import { InvalidInput, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { ClientKeyRequest } from "./CredentialRequest.js"
import { isRetry, type RetryRefused, SignedRetry, type WalletHeaders } from "./SignedRetry.js"
import * as WalletAccounts from "./WalletAccounts.js"
import { WalletKeys } from "./WalletKeys.js"
import { WalletSecretRepo } from "./WalletSecretRepo.js"
import * as WalletStep from "./WalletStep.js"

/** `POST /internal-accounts/{id}/export`'s answer: the wallet's secret sealed to the requester's key. */
export interface ExportedWallet {
  readonly id: InternalAccount.InternalAccountId
  readonly encryptedWalletCredentials: string
}

type Failure =
  RetryRefused | InvalidInput.InvalidInput | AccountErrors.InternalAccountNotFound | StoreFailure.StoreFailure

/**
 * Exports an embedded wallet's secret to its owner's device, only through the signed retry: the first leg answers a
 * challenge, the retry (stamped by an active session, with the same fresh uncompressed `clientPublicKey`) receives
 * the secret sealed to that key. The sealed export is never stored: a lapsed challenge means a new export.
 */
export class WalletExports extends Context.Tag("@payrail/core/WalletExports")<
  WalletExports,
  {
    readonly export: (
      platform: Platform.Platform,
      accountId: InternalAccount.InternalAccountId,
      request: ClientKeyRequest,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<ExportedWallet>, Failure>
  }
>() {}

export const layer = Layer.effect(
  WalletExports,
  Effect.gen(function* () {
    const accounts = yield* InternalAccountRepo.InternalAccountRepo
    const secrets = yield* WalletSecretRepo
    const keys = yield* WalletKeys
    const retry = yield* SignedRetry
    const unitOfWork = yield* UnitOfWork.UnitOfWork

    const exportWallet = Effect.fn("WalletExports.export")(function* (
      platform: Platform.Platform,
      accountId: InternalAccount.InternalAccountId,
      request: ClientKeyRequest,
      headers: WalletHeaders
    ) {
      const account = yield* WalletAccounts.find(accounts, platform.id, accountId, "id")
      const key = yield* keys.parsePublicKey(request.clientPublicKey, "clientPublicKey")
      if (!key.wasUncompressed) {
        return yield* InvalidInput.InvalidInput.onField(
          "clientPublicKey",
          "an export is sealed to an uncompressed P-256 key (04 and 128 hex digits)"
        )
      }
      const action = { accountId: account.id, operation: "EXPORT_WALLET", targetId: account.id, body: request } as const
      if (!isRetry(headers)) return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action) })
      const authorized = yield* retry.authorize(platform.id, action, headers)
      const created = yield* keys.createWalletSecret
      const sealed = yield* unitOfWork.transaction(
        Effect.gen(function* () {
          yield* retry.consume(platform.id, authorized.request)
          return yield* secrets.keep(platform.id, account.id, created, yield* DateTime.now)
        })
      )
      const encryptedWalletCredentials = yield* keys.exportWalletSecret({
        sealedSecret: sealed,
        recipientPublicKey: request.clientPublicKey,
        organizationId: platform.id
      })
      return WalletStep.Done({ value: { id: account.id, encryptedWalletCredentials } })
    })

    return WalletExports.of({ export: exportWallet })
  })
)
