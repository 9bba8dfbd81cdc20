import { Context, Effect, Layer, Option, Schema } from "effect"
import { LightningDestination, WalletAddress } from "@payrail/account-formats"
import { AccountErrors, InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import { InvalidInput, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { AmountBelowFee, WithdrawalNotSupported } from "./LookupErrors.js"
import { WithdrawalFeeProvider } from "./WithdrawalFeeProvider.js"
import {
  assetsOf,
  type CryptoNetwork,
  type EstimateWithdrawalFeeRequest,
  type WithdrawalFeeEstimate
} from "./WithdrawalFeeRequest.js"

const isLightningAddress = Schema.is(LightningDestination.LightningAddress)
const bitcoinAddress = /^(?:(?:bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87}|[13mn2][1-9A-HJ-NP-Za-km-z]{25,34})$/

/** Whether `address` is a destination of `network` (the format checks of `@payrail/account-formats`). */
export const isDestinationOf = (network: CryptoNetwork, address: string): boolean => {
  switch (network) {
    case "BITCOIN":
      return bitcoinAddress.test(address)
    case "LIGHTNING":
      return (
        LightningDestination.isBolt11Invoice(address) ||
        LightningDestination.isBolt12Offer(address) ||
        isLightningAddress(address)
      )
    case "SPARK":
      return WalletAddress.isSparkAddress(address)
    case "SOLANA":
      return WalletAddress.isSolanaAddress(address)
    case "TRON":
      return WalletAddress.isTronAddress(address)
    default:
      return WalletAddress.isEvmAddress(address)
  }
}

const decodeAccountId = Schema.decodeUnknownOption(InternalAccount.InternalAccountId)

/**
 * Estimates of crypto withdrawals (docs/crypto-withdrawal-fees.md): what the network and the platform would take
 * from a withdrawal of `amount` from a crypto internal account, and what would arrive. Nothing is reserved.
 */
export class WithdrawalFees extends Context.Tag("@payrail/core/WithdrawalFees")<
  WithdrawalFees,
  {
    readonly estimate: (
      platform: Platform.Platform,
      request: EstimateWithdrawalFeeRequest
    ) => Effect.Effect<
      WithdrawalFeeEstimate,
      | InvalidInput.InvalidInput
      | AccountErrors.InternalAccountNotFound
      | WithdrawalNotSupported
      | AmountBelowFee
      | StoreFailure.StoreFailure
    >
  }
>() {}

export const layer = Layer.effect(
  WithdrawalFees,
  Effect.gen(function* () {
    const accounts = yield* InternalAccountRepo.InternalAccountRepo
    const provider = yield* WithdrawalFeeProvider
    return WithdrawalFees.of({
      estimate: Effect.fn("WithdrawalFees.estimate")(function* (platform, request) {
        const id = decodeAccountId(request.internalAccountId)
        if (Option.isNone(id)) {
          return yield* InvalidInput.InvalidInput.onField(
            "internalAccountId",
            "must be an InternalAccount id of the form InternalAccount:<uuid>"
          )
        }
        const account = yield* accounts.findById(platform.id, id.value)
        if (Option.isNone(account)) return yield* AccountErrors.InternalAccountNotFound.of(request.internalAccountId)
        const accountCurrency = account.value.currency
        if (account.value.type === "INTERNAL_FIAT") {
          return yield* WithdrawalNotSupported.of("account_not_crypto", { currency: request.currency, accountCurrency })
        }
        if (request.currency !== accountCurrency) {
          return yield* WithdrawalNotSupported.of("currency_mismatch", { currency: request.currency, accountCurrency })
        }
        if (!assetsOf[request.cryptoNetwork].includes(request.currency)) {
          return yield* WithdrawalNotSupported.of("network_does_not_carry_currency", {
            currency: request.currency,
            cryptoNetwork: request.cryptoNetwork
          })
        }
        if (!isDestinationOf(request.cryptoNetwork, request.destinationAddress)) {
          return yield* InvalidInput.InvalidInput.onField(
            "destinationAddress",
            `must be an address of the ${request.cryptoNetwork} network`
          )
        }
        const fee = yield* provider.networkFee({
          network: request.cryptoNetwork,
          currency: request.currency,
          amountMinor: request.amount,
          destinationAddress: request.destinationAddress
        })
        // Platform fees apply to cross-currency transactions only (PlatformConfig.feeConfigs): none on a withdrawal.
        const applicationFee = 0
        const totalFee = fee.inWithdrawalCurrency + applicationFee
        if (request.amount <= totalFee) return yield* AmountBelowFee.of(request.amount, totalFee)
        return {
          networkFee: fee.networkFee,
          networkFeeAsset: fee.asset,
          applicationFee,
          totalFee,
          netAmount: request.amount - totalFee
        }
      })
    })
  })
)
