import { Effect, Option, Schema } from "effect"
import { AccountErrors, ExternalAccount, ExternalAccountRepo } from "../accounts/index.js"
import { InvalidInput, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { BurnSourceNotSupported, ExternalAccountNotSupported, OperationNotSupported } from "./StablecoinErrors.js"
import type { BurnRequest, MintRequest } from "./StablecoinRequest.js"

/**
 * The accounts a mint or a burn names, checked before anything is recorded (docs/stablecoins.md): every named
 * external account exists on the platform (404 otherwise) and is `ACTIVE`; a mint pays coins to a Spark wallet and
 * an ACH debit pulls from a bank account; a burn's external source is a Spark wallet and its destination a bank
 * account. Payrail internal accounts and provider balances as mint sources are reserved by the reference.
 */

type Failure =
  | InvalidInput.InvalidInput
  | AccountErrors.ExternalAccountNotFound
  | ExternalAccountNotSupported
  | StoreFailure.StoreFailure

type Kind = "spark" | "bank"

const decodeId = Schema.decodeUnknownOption(ExternalAccount.ExternalAccountId)

const isSpark = (accountType: string) => accountType === "SPARK_WALLET"
const isBank = (accountType: string) => !accountType.endsWith("_WALLET") && !accountType.startsWith("LIGHTNING")

const required = (field: string, id: string | undefined) =>
  id === undefined || id === ""
    ? Effect.fail(InvalidInput.InvalidInput.onField(field, "is required for this type"))
    : Effect.succeed(id)

const external = (platform: Platform.Platform, field: string, id: string, kind: Kind) =>
  Effect.gen(function* () {
    const decoded = decodeId(id)
    const found = Option.isNone(decoded)
      ? Option.none()
      : yield* (yield* ExternalAccountRepo.ExternalAccountRepo).findById(platform.id, decoded.value)
    if (Option.isNone(found)) return yield* AccountErrors.ExternalAccountNotFound.of(id)
    const account = found.value
    if (account.status !== "ACTIVE") return yield* ExternalAccountNotSupported.of(field, id, "not_active")
    const type = account.accountInfo.accountType
    if (kind === "spark" && !isSpark(type)) {
      return yield* ExternalAccountNotSupported.of(field, id, "spark_wallet_required")
    }
    if (kind === "bank" && !isBank(type))
      return yield* ExternalAccountNotSupported.of(field, id, "bank_account_required")
  })

/** Checks a mint's funding source and destination. */
export const checkMint = (
  platform: Platform.Platform,
  request: MintRequest
): Effect.Effect<void, Failure | OperationNotSupported, ExternalAccountRepo.ExternalAccountRepo> =>
  Effect.gen(function* () {
    const funding = request.fundingSource
    if (funding.type === "GRID_INTERNAL_ACCOUNT" || funding.type === "PROVIDER_INTERNAL_BALANCE") {
      return yield* OperationNotSupported.of("fundingSource.type", funding.type)
    }
    if (request.destination.type === "GRID_INTERNAL_ACCOUNT") {
      return yield* OperationNotSupported.of("destination.type", request.destination.type)
    }
    const destination = yield* required("destination.externalAccountId", request.destination.externalAccountId)
    if (funding.type !== "WIRE") {
      const debited = yield* required("fundingSource.externalAccountId", funding.externalAccountId)
      yield* external(platform, "fundingSource.externalAccountId", debited, "bank")
    }
    yield* external(platform, "destination.externalAccountId", destination, "spark")
  })

/** Checks a burn's source and destination. */
export const checkBurn = (
  platform: Platform.Platform,
  request: BurnRequest
): Effect.Effect<void, Failure | BurnSourceNotSupported, ExternalAccountRepo.ExternalAccountRepo> =>
  Effect.gen(function* () {
    const source = request.source
    if (source.type === "GRID_INTERNAL_ACCOUNT") return yield* BurnSourceNotSupported.of(source.type)
    if (source.type === "EXTERNAL_ACCOUNT") {
      const id = yield* required("source.externalAccountId", source.externalAccountId)
      yield* external(platform, "source.externalAccountId", id, "spark")
    }
    yield* external(platform, "destination.externalAccountId", request.destination.externalAccountId, "bank")
  })
