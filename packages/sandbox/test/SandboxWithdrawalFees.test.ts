import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WithdrawalFeeProvider, WithdrawalFeeRequest } from "@payrail/core"
import { SandboxWithdrawalFees } from "@payrail/sandbox"

const feeOf = (network: WithdrawalFeeRequest.CryptoNetwork, currency: string) =>
  Effect.flatMap(WithdrawalFeeProvider.WithdrawalFeeProvider, (provider) =>
    provider.networkFee({ network, currency, amountMinor: 1_000_000, destinationAddress: "x" })
  ).pipe(Effect.provide(SandboxWithdrawalFees.layer))

describe("SandboxWithdrawalFees", () => {
  it.effect("answers each network's fixed fee, in its asset and in the withdrawn currency", () =>
    Effect.gen(function* () {
      expect(yield* feeOf("SOLANA", "USDC")).toEqual({ networkFee: 5_000, asset: "SOL", inWithdrawalCurrency: 10_000 })
      expect(yield* feeOf("ETHEREUM", "USDT")).toEqual({
        networkFee: 300_000_000_000_000,
        asset: "ETH",
        inWithdrawalCurrency: 1_000_000
      })
      expect(yield* feeOf("BITCOIN", "BTC")).toEqual({ networkFee: 1_500, asset: "BTC", inWithdrawalCurrency: 1_500 })
      expect(yield* feeOf("PLASMA", "USDT")).toEqual({ networkFee: 0, asset: "XPL", inWithdrawalCurrency: 0 })
    })
  )

  it("prices every network, each fee a safe integer", () => {
    for (const network of WithdrawalFeeRequest.CryptoNetwork.literals) {
      const tariff = SandboxWithdrawalFees.tariffs[network]
      expect(Number.isSafeInteger(tariff.networkFee), network).toBe(true)
      expect(tariff.networkFee >= 0 && tariff.usdCents >= 0 && tariff.sats >= 0, network).toBe(true)
    }
  })
})
