import { sha256 } from "@noble/hashes/sha2.js"
import { DateTime, Effect, Layer } from "effect"
import { FundingInstructions, type Quote } from "@payrail/core"
import * as SandboxLightningInvoice from "./SandboxLightningInvoice.js"

type Instructions = Quote.PaymentInstructions

const encoder = new TextEncoder()

const bankName = "Payrail Sandbox Bank"
const notes = (reference: string) =>
  `Send exactly the quoted amount and include the reference ${reference}; in the sandbox, POST /sandbox/send pays it.`

// The sandbox's collection accounts, one per currency it has a local rail for; every value passes the account
// format checks of its type (valid IBAN and CLABE check digits).
const bankAccounts: Readonly<Record<string, Record<string, unknown>>> = {
  USD: {
    accountType: "USD_ACCOUNT",
    accountNumber: "9876543210",
    routingNumber: "021000021",
    paymentRails: ["RTP", "FEDNOW", "ACH", "WIRE"]
  },
  EUR: { accountType: "EUR_ACCOUNT", iban: "DE89370400440532013000", paymentRails: ["SEPA_INSTANT", "SEPA"] },
  GBP: { accountType: "GBP_ACCOUNT", sortCode: "200000", accountNumber: "55779911", paymentRails: ["FASTER_PAYMENTS"] },
  MXN: { accountType: "MXN_ACCOUNT", clabeNumber: "002010077777777771", paymentRails: ["SPEI"] },
  BRL: { accountType: "BRL_ACCOUNT", pixKey: "funding@sandbox.payrail.dev", pixKeyType: "EMAIL", paymentRails: ["PIX"] }
}

/** A Solana address of the sandbox's USDC and USDT collection wallet (a valid base58 32-byte key). */
export const sandboxSolanaAddress = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"

const wallet = (currency: string, reference: string): Instructions => ({
  instructionsNotes: `Send exactly the quoted amount of ${currency} on Solana; in the sandbox, POST /sandbox/send pays it.`,
  accountOrWalletInfo: { accountType: "SOLANA_WALLET", address: sandboxSolanaAddress, assetType: currency, reference }
})

/**
 * The sandbox's funding instructions: bank details of its collection account in the currency with the quote's
 * reference (USD, EUR, GBP, MXN, BRL; any other fiat currency gets a generic bank transfer), a Solana wallet address
 * for USDC and USDT, and for BTC a BOLT11 invoice for the exact amount, signed by the sandbox node and expiring with
 * the quote.
 */
export const layer: Layer.Layer<FundingInstructions.FundingInstructions> = Layer.succeed(
  FundingInstructions.FundingInstructions,
  {
    instructionsFor: (request) =>
      Effect.gen(function* () {
        if (request.currency === "BTC") {
          // The invoice's time is the platform's (its sandbox clock), as is the quote's `expiresAt`.
          const issuedAt = Math.floor(DateTime.toEpochMillis(yield* DateTime.now) / 1000)
          const expiry = Math.max(1, Math.floor(DateTime.toEpochMillis(request.expiresAt) / 1000) - issuedAt)
          const invoice = SandboxLightningInvoice.encode({
            amountSats: request.amountMinor,
            paymentHash: sha256(encoder.encode(`payment:${request.quoteId}`)),
            paymentSecret: sha256(encoder.encode(`secret:${request.quoteId}`)),
            description: `Payrail quote ${request.quoteId}`,
            timestampSeconds: issuedAt,
            expirySeconds: expiry,
            nodeSecretKey: SandboxLightningInvoice.sandboxNodeSecretKey
          })
          const lightning: Instructions = {
            instructionsNotes: "Pay the invoice from any Lightning wallet.",
            accountOrWalletInfo: { accountType: "LIGHTNING", invoice }
          }
          return [lightning]
        }
        if (request.currency === "USDC" || request.currency === "USDT")
          return [wallet(request.currency, request.reference)]
        const account = bankAccounts[request.currency] ?? {
          accountType: "BANK_TRANSFER",
          accountNumber: "0012345678",
          currency: request.currency
        }
        const bank: Instructions = {
          instructionsNotes: notes(request.reference),
          isPlatformAccount: false,
          accountOrWalletInfo: {
            ...account,
            accountType: String(account["accountType"]),
            bankName,
            reference: request.reference
          }
        }
        return [bank]
      })
  }
)
